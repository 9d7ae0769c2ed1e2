import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Production's generated bootstrap token goes to a file only the service's user can read (0600), never to
 * the log, which log shippers collect (docs/production.md, "First start"). Written before the token is
 * stored (bootstrap.ts): a start that cannot write it fails and stores nothing, so no token exists that
 * nobody can read. Answers the file's absolute path, which the log prints.
 */
export function writeOperatorTokenFile(path: string, token: string): string {
  const at = resolve(path);
  mkdirSync(dirname(at), { recursive: true, mode: 0o700 });
  writeFileSync(at, `${token}\n`, { mode: 0o600 });
  // `mode` applies to a file created now; one left by an earlier start keeps its own until this.
  chmodSync(at, 0o600);
  return at;
}
