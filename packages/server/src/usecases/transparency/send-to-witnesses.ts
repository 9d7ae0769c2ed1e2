import { createHash, createPublicKey, verify } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Clock } from '../../domain/ports.ts';
import { consistencyProof, type NodeReader } from '../../domain/transparency/merkle.ts';

/** What sending to witnesses reads and writes of the log. */
export interface WitnessedLog extends NodeReader {
  latestCheckpoint(): Promise<{ size: number; note: string } | null>;
  cosignatures(size: number): Promise<Map<string, string>>;
  addCosignature(size: number, witness: string, line: string, at: Date): Promise<void>;
}

/** How long a witness may take to answer: one that is down does not hold the log back. */
export const WITNESS_TIMEOUT_MS = 5_000;

/** Per witness (by verifier key), the size it said it last cosigned: the old size of the next request. */
const known = new Map<string, number>();

type Logger = { warn(obj: unknown, msg: string): void } | undefined;

/** Whether `line` is a valid C2SP tlog-cosignature v1 (Ed25519) of the checkpoint text by the witness. */
export function validCosignature(verifierKey: string, text: string, line: string): boolean {
  const [name, id, ...rest] = verifierKey.split('+');
  const raw = Buffer.from(rest.join('+'), 'base64');
  const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
  if (!m || m[1] !== name || raw.length !== 33 || raw[0] !== 0x04) return false;
  const blob = Buffer.from(m[2]!, 'base64');
  if (blob.length !== 76 || blob.subarray(0, 4).toString('hex') !== id) return false;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(1).toString('base64url') }, format: 'jwk' });
  const keyId = createHash('sha256')
    .update(name!)
    .update(Buffer.from([0x0a]))
    .update(raw)
    .digest()
    .subarray(0, 4);
  if (keyId.toString('hex') !== id) return false;
  const msg = `cosignature/v1\ntime ${blob.readBigUInt64BE(4)}\n${text}`;
  return verify(null, Buffer.from(msg, 'utf8'), key, blob.subarray(12));
}

/**
 * Sends the latest checkpoint to every witness that has not cosigned it yet (C2SP tlog-witness `POST
 * <url>/add-checkpoint`: the old size it knows, the consistency proof from it, the checkpoint), and keeps
 * each valid cosignature. A witness that says it knows another size (409) is asked again from that size;
 * one that is down or refuses is logged and tried at the next run. Runs outside any database transaction.
 */
export async function sendToWitnesses(deps: {
  config: Pick<Config, 'witnesses'>;
  store: { transparency: WitnessedLog };
  clock: Clock;
  logger?: Logger;
}): Promise<void> {
  const log = deps.store.transparency;
  const latest = await log.latestCheckpoint();
  if (!latest || deps.config.witnesses.length === 0) return;
  const have = await log.cosignatures(latest.size);
  const text = latest.note.slice(0, latest.note.lastIndexOf('\n\n') + 1);
  await Promise.all(
    deps.config.witnesses
      .filter((w) => !have.has(w.name))
      .map(async (w) => {
        try {
          for (let attempt = 0; attempt < 2; attempt++) {
            const old = Math.min(known.get(w.verifierKey) ?? 0, latest.size);
            const proof = old > 0 && old < latest.size ? await consistencyProof(old, latest.size, log) : [];
            const body = `old ${old}\n${proof.map((h) => `${h.toString('base64')}\n`).join('')}\n${latest.note}`;
            const r = await fetch(`${w.url}/add-checkpoint`, { method: 'POST', body, signal: AbortSignal.timeout(WITNESS_TIMEOUT_MS) });
            const answer = await r.text();
            if (r.status === 409 && /^(0|[1-9][0-9]*)\n?$/.test(answer)) {
              known.set(w.verifierKey, Number(answer.trim()));
              continue;
            }
            if (r.status !== 200) {
              deps.logger?.warn({ witness: w.name, status: r.status, answer: answer.slice(0, 200) }, 'a witness refused the checkpoint');
              return;
            }
            const line = answer.split('\n').find((l) => validCosignature(w.verifierKey, text, l));
            if (!line) {
              deps.logger?.warn({ witness: w.name }, 'a witness answered no valid cosignature');
              return;
            }
            known.set(w.verifierKey, latest.size);
            await log.addCosignature(latest.size, w.name, line, deps.clock.now());
            return;
          }
        } catch (err) {
          deps.logger?.warn({ witness: w.name, err }, 'a witness could not be reached; the log goes on');
        }
      }),
  );
}
