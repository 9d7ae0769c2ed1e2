import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the CLI finds its settings: flags, then the environment, then the config file. */
export interface Settings {
  baseUrl: string;
  apiKey: string | undefined;
  operatorToken: string | undefined;
  /** A member who signs in for what only people do (`cambio policy`, `cambio approvals`); the password only from the environment. */
  memberEmail: string | undefined;
  memberPassword: string | undefined;
  memberCode: string | undefined;
  lang: string;
  /** Where the file was looked for, for messages (never its content). */
  configPath: string;
  warnings: string[];
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

interface FileConfig {
  apiKey?: unknown;
  baseUrl?: unknown;
  operatorToken?: unknown;
  email?: unknown;
  lang?: unknown;
}

export class UsageError extends Error {}

/** `CAMBIO_CONFIG`, or `~/.config/cambio/config.json` (`$XDG_CONFIG_HOME` honoured). */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.CAMBIO_CONFIG) return env.CAMBIO_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'cambio', 'config.json');
}

function readFileConfig(path: string, explicit: boolean, warnings: string[]): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (explicit) throw new UsageError(`cannot read the config file ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`the config file ${path} is not valid JSON`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`the config file ${path} must hold a JSON object`);
  try {
    // A key is a credential: a file others can read is flagged (never its content).
    if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0)
      warnings.push(`${path} is readable by other users; chmod 600 it`);
  } catch {
    /* the read above worked; a stat failure only loses the warning */
  }
  return parsed as FileConfig;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export function loadSettings(env: NodeJS.ProcessEnv, flags: { baseUrl?: string | undefined; lang?: string | undefined }): Settings {
  const path = configPath(env);
  const warnings: string[] = [];
  const file = readFileConfig(path, Boolean(env.CAMBIO_CONFIG), warnings);
  return {
    baseUrl: str(flags.baseUrl) ?? str(env.CAMBIO_BASE_URL) ?? str(file.baseUrl) ?? DEFAULT_BASE_URL,
    apiKey: str(env.CAMBIO_API_KEY) ?? str(file.apiKey),
    operatorToken: str(env.OPERATOR_TOKEN) ?? str(file.operatorToken),
    memberEmail: str(env.CAMBIO_EMAIL) ?? str(file.email),
    memberPassword: env.CAMBIO_PASSWORD || undefined,
    memberCode: str(env.CAMBIO_TOTP_CODE),
    lang: str(flags.lang) ?? str(env.CAMBIO_LANG) ?? str(file.lang) ?? 'en',
    configPath: path,
    warnings,
  };
}
