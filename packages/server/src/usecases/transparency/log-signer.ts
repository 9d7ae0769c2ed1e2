import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import { SealedBox } from '../../domain/sealed-box.ts';
import { checkpointText, NoteSigner } from '../../domain/transparency/note.ts';
import type { SettingsRepository } from '../repositories.ts';

/** Where the generated seed is kept, sealed under the server secret (domain/sealed-box.ts). */
export const SIGNING_KEY_SETTING = 'log_signing_key';
const AAD = 'cambio/log-signing-key/v1';

export interface LogIdentity {
  origin: string;
  signer: NoteSigner;
  signCheckpoint(size: number, root: Buffer): string;
}

const cache = new WeakMap<SettingsRepository, Promise<LogIdentity>>();

/**
 * The log's origin (`cambio/<log name>`) and its Ed25519 key, named as the origin. The seed comes from
 * CAMBIO_LOG_SIGNING_KEY, else it is generated once, sealed and kept in the store: every instance over
 * the store takes the first one written (setIfAbsent), so all of them sign with the same key.
 */
export function logIdentity(deps: {
  config: Pick<Config, 'logName' | 'logSigningKey'>;
  store: { settings: SettingsRepository };
  secret: string;
}): Promise<LogIdentity> {
  let p = cache.get(deps.store.settings);
  if (!p) {
    p = load(deps).catch((err: unknown) => {
      cache.delete(deps.store.settings);
      throw err;
    });
    cache.set(deps.store.settings, p);
  }
  return p;
}

async function load(deps: {
  config: Pick<Config, 'logName' | 'logSigningKey'>;
  store: { settings: SettingsRepository };
  secret: string;
}): Promise<LogIdentity> {
  const origin = `cambio/${deps.config.logName}`;
  let seed = deps.config.logSigningKey;
  if (!seed) {
    const box = new SealedBox(deps.secret, 'transparency/log-signing-key', 'l1.');
    const sealed = await deps.store.settings.setIfAbsent(SIGNING_KEY_SETTING, box.seal(randomBytes(32).toString('base64'), AAD));
    seed = Buffer.from(box.open(sealed, AAD), 'base64');
  }
  const signer = new NoteSigner(origin, seed);
  return { origin, signer, signCheckpoint: (size, root) => signer.sign(checkpointText(origin, size, root)) };
}
