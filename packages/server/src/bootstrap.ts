import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import { hashOperatorToken } from './http/plugins/operator-auth.ts';
import type { Store } from './store/index.ts';

export interface Secrets {
  secret: string;
  operatorTokenHash: string;
  /** Set only when the token was generated now: printed once, never again. */
  generatedOperatorToken?: string;
}

export interface TokenNotices {
  /** A token was just generated: print it now, before it is stored (it is printed once, at first start). */
  generated(token: string): void;
  /** Another instance stored its token first (several instances starting on one empty PostgreSQL). */
  notUsed(): void;
}

/**
 * The server secret and the operator token. Either comes from the environment; otherwise it is
 * generated at the first start and kept in the store (the token only as its hash), so a restart on
 * the same store keeps every key working. Several instances agree: the first writer wins.
 *
 * A generated token is shown before it is stored and before any other start-up work: a start that dies
 * at any later point has printed it already, and a start that dies before storing it leaves no token,
 * so the next start generates and prints another. Never a stored token that nobody saw.
 */
export async function resolveSecrets(store: Store, config: Config, notices?: TokenNotices): Promise<Secrets> {
  const secret = config.secret ?? (await store.settings.setIfAbsent('server_secret', randomBytes(32).toString('base64url')));
  if (config.operatorToken) return { secret, operatorTokenHash: hashOperatorToken(config.operatorToken) };
  const existing = await store.settings.get('operator_token_hash');
  if (existing !== null) return { secret, operatorTokenHash: existing };
  const candidate = `op_${randomBytes(24).toString('base64url')}`;
  notices?.generated(candidate);
  const stored = await store.settings.setIfAbsent('operator_token_hash', hashOperatorToken(candidate));
  if (stored !== hashOperatorToken(candidate)) {
    notices?.notUsed();
    return { secret, operatorTokenHash: stored };
  }
  return { secret, operatorTokenHash: stored, generatedOperatorToken: candidate };
}
