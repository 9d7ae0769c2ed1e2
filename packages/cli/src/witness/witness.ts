import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { verifyConsistency } from '@cambio/sdk';
import { openCheckpoint, type NoteKey } from '../verify/log-check.ts';

/**
 * A witness of the C2SP `tlog-witness` protocol (docs/transparency.md): it cosigns a log's checkpoint
 * (C2SP `tlog-cosignature` v1, Ed25519, timestamped) only when the log's signature holds and the
 * checkpoint is consistent with the last one it cosigned for that origin, kept in a state file beside
 * its key. It never cosigns two different trees of one size.
 */
const sha = (...p: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const x of p) h.update(x);
  return h.digest();
};
const EMPTY_ROOT = sha();
/** The cosignature key type of C2SP tlog-cosignature v1 (Ed25519). */
const COSIGNATURE_V1 = 0x04;

export interface WitnessKey {
  name: string;
  privateKey: KeyObject;
  publicKey: Buffer;
  keyId: Buffer;
  /** `<name>+<hex key id>+<base64(0x04 ‖ public key)>`. */
  verifierKey: string;
}

interface KeyFile {
  name: string;
  seed: string;
}

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The witness's key from its file, generated (with `name`) when the file does not exist yet. */
export function loadOrCreateKey(path: string, name: string): WitnessKey {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    const f: KeyFile = { name, seed: randomBytes(32).toString('base64') };
    writeFileSync(path, `${JSON.stringify(f)}\n`, { mode: 0o600, flag: 'wx' });
  }
  const f = JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
  const seed = Buffer.from(f.seed, 'base64');
  if (!f.name || seed.length !== 32) throw new Error(`${path} is not a witness key file`);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = Buffer.from(jwk.x!, 'base64url');
  const raw = Buffer.concat([Buffer.from([COSIGNATURE_V1]), publicKey]);
  const keyId = sha(Buffer.from(f.name, 'utf8'), Buffer.from([0x0a]), raw).subarray(0, 4);
  return { name: f.name, privateKey, publicKey, keyId, verifierKey: `${f.name}+${keyId.toString('hex')}+${raw.toString('base64')}` };
}

/** The cosignature line of `body` (the checkpoint note's text, up to and with its last newline) at `time` (POSIX seconds). */
export function cosign(k: WitnessKey, body: string, time: number): string {
  const msg = `cosignature/v1\ntime ${time}\n${body}`;
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(BigInt(time));
  const sig = sign(null, Buffer.from(msg, 'utf8'), k.privateKey);
  return `\u2014 ${k.name} ${Buffer.concat([k.keyId, ts, sig]).toString('base64')}\n`;
}

interface Cosigned {
  size: number;
  root: string;
}
type State = Record<string, Cosigned>;

export type AddResult = { status: 200; body: string } | { status: 409; size: number } | { status: 400 | 403 | 404 | 422; reason: string };

/** The witness's state: per origin, the last checkpoint it cosigned, kept in `<key file>.state.json`. */
export class Witness {
  #state: State;
  // One request at a time: the check of the old size and the write of the new one are one step.
  #turn: Promise<unknown> = Promise.resolve();

  constructor(
    readonly key: WitnessKey,
    readonly logKey: NoteKey,
    readonly statePath: string,
    private readonly now: () => number = () => Math.trunc(Date.now() / 1000),
  ) {
    this.#state = existsSync(statePath) ? (JSON.parse(readFileSync(statePath, 'utf8')) as State) : {};
  }

  add(body: string): Promise<AddResult> {
    const run = this.#turn.then(() => this.#add(body));
    this.#turn = run.catch(() => undefined);
    return run;
  }

  async #add(request: string): Promise<AddResult> {
    const blank = request.indexOf('\n\n');
    if (blank < 0) return { status: 400, reason: 'no empty line before the checkpoint' };
    const head = request.slice(0, blank).split('\n');
    const note = request.slice(blank + 2);
    const old = /^old (0|[1-9][0-9]*)$/.exec(head[0] ?? '');
    if (!old) return { status: 400, reason: 'the first line is not "old <size>"' };
    const proofLines = head.slice(1);
    if (proofLines.length > 63) return { status: 400, reason: 'more than 63 proof lines' };
    const proof: string[] = [];
    for (const l of proofLines) {
      const b = Buffer.from(l, 'base64');
      if (b.length !== 32 || b.toString('base64') !== l) return { status: 400, reason: 'a proof line is not a base64 hash' };
      proof.push(b.toString('hex'));
    }
    const origin = note.split('\n', 1)[0];
    if (origin !== this.logKey.name) return { status: 404, reason: `unknown origin ${origin}` };
    const cp = openCheckpoint(note, this.logKey);
    if (!cp) return { status: 403, reason: "no valid signature by the log's key" };
    const oldSize = Number(old[1]);
    if (oldSize > cp.size) return { status: 400, reason: 'the old size is larger than the checkpoint' };
    const known = this.#state[cp.origin] ?? { size: 0, root: EMPTY_ROOT.toString('hex') };
    if (oldSize !== known.size) return { status: 409, size: known.size };
    const root = cp.root.toString('hex');
    if (cp.size === 0 && root !== EMPTY_ROOT.toString('hex')) return { status: 422, reason: 'a checkpoint of size 0 has the empty root' };
    if (oldSize === 0) {
      if (proof.length > 0) return { status: 422, reason: 'no proof is needed from size 0' };
    } else if (oldSize === cp.size) {
      if (root !== known.root) return { status: 422, reason: `another root for size ${cp.size}` };
    } else if (!(await verifyConsistency({ treeSize: oldSize, rootHash: known.root }, { treeSize: cp.size, rootHash: root }, proof))) {
      return { status: 422, reason: `the proof does not show ${cp.size} extends ${oldSize}` };
    }
    this.#state[cp.origin] = { size: cp.size, root };
    mkdirSync(dirname(this.statePath), { recursive: true });
    const tmp = `${this.statePath}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.#state)}\n`, { mode: 0o600 });
    renameSync(tmp, this.statePath);
    const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
    return { status: 200, body: cosign(this.key, text, this.now()) };
  }
}
