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

/**
 * The server secret and the operator token. Either comes from the environment; otherwise it is
 * generated at the first start and kept in the store (the token only as its hash), so a restart on
 * the same store keeps every key working. Several instances agree: the first writer wins.
 */
export async function resolveSecrets(store: Store, config: Config): Promise<Secrets> {
  const secret = config.secret ?? (await store.settings.setIfAbsent('server_secret', randomBytes(32).toString('base64url')));
  if (config.operatorToken) return { secret, operatorTokenHash: hashOperatorToken(config.operatorToken) };
  const candidate = `op_${randomBytes(24).toString('base64url')}`;
  const stored = await store.settings.setIfAbsent('operator_token_hash', hashOperatorToken(candidate));
  return stored === hashOperatorToken(candidate)
    ? { secret, operatorTokenHash: stored, generatedOperatorToken: candidate }
    : { secret, operatorTokenHash: stored };
}
