import assert from 'node:assert/strict';
import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { test } from 'node:test';
import { checkpointText, NoteSigner } from './note.ts';

// An independent parser and verifier of C2SP signed notes and tlog checkpoints, from the specs alone.
function parseVerifierKey(vkey: string): { name: string; hash: Buffer; publicKey: Buffer } {
  // name + hash + key: the name and the hash hold no '+', the base64 key may.
  const [name, hashHex, ...keyParts] = vkey.split('+');
  const key = keyParts.join('+');
  assert.match(hashHex!, /^[0-9a-f]{8}$/);
  const raw = Buffer.from(key, 'base64');
  assert.equal(raw.length, 33);
  assert.equal(raw[0], 0x01, 'Ed25519');
  const publicKey = raw.subarray(1);
  const hash = createHash('sha256').update(Buffer.concat([Buffer.from(name!, 'utf8'), Buffer.from([0x0a]), raw])).digest().subarray(0, 4);
  assert.equal(hash.toString('hex'), hashHex, 'the key hash is SHA-256(name ‖ \\n ‖ 0x01 ‖ key)[:4]');
  return { name: name!, hash, publicKey };
}
function openNote(note: string, vkey: string): string {
  const k = parseVerifierKey(vkey);
  const split = note.lastIndexOf('\n\n');
  assert.ok(split > 0);
  const text = note.slice(0, split + 1);
  const sigLines = note.slice(split + 2).split('\n');
  assert.equal(sigLines.pop(), '', 'the note ends with a newline');
  let verified = 0;
  for (const line of sigLines) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    assert.ok(m, `a signature line: ${line}`);
    const blob = Buffer.from(m[2]!, 'base64');
    if (m[1] !== k.name || !blob.subarray(0, 4).equals(k.hash)) continue;
    const pub = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.publicKey.toString('base64url') }, format: 'jwk' });
    if (verify(null, Buffer.from(text, 'utf8'), pub, blob.subarray(4))) verified += 1;
  }
  if (verified === 0) throw new Error('no valid signature by the key');
  return text;
}
function parseCheckpoint(text: string): { origin: string; size: bigint; root: Buffer } {
  const lines = text.split('\n');
  assert.ok(lines.length >= 4 && lines[lines.length - 1] === '');
  assert.match(lines[1]!, /^(0|[1-9][0-9]*)$/);
  const root = Buffer.from(lines[2]!, 'base64');
  assert.equal(root.toString('base64'), lines[2]);
  return { origin: lines[0]!, size: BigInt(lines[1]!), root };
}

test('signs exactly as the Go reference signed-note example (same key, same bytes)', () => {
  // golang.org/x/mod/sumdb/note's documented example: PRIVATE+KEY+PeterNeumann+c74f20a3+AYEK… (0x01 ‖ seed).
  const seed = Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1);
  const signer = new NoteSigner('PeterNeumann', seed);
  assert.equal(signer.verifierKey(), 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW');
  const text = 'If you think cryptography is the answer to your problem,\nthen you don\'t know what your problem is.\n';
  assert.equal(signer.sign(text), `${text}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`);
});

test('a checkpoint note is parsed and verified by an independent reader; any altered byte fails', () => {
  const signer = new NoteSigner('cambio/example.com', randomBytes(32));
  const root = createHash('sha256').update('r').digest();
  const note = signer.sign(checkpointText('cambio/example.com', 1234, root));
  const cp = parseCheckpoint(openNote(note, signer.verifierKey()));
  assert.deepEqual(cp, { origin: 'cambio/example.com', size: 1234n, root });
  const at = note.indexOf('1234');
  const altered = `${note.slice(0, at)}1235${note.slice(at + 4)}`;
  assert.throws(() => openNote(altered, signer.verifierKey()));
  const other = new NoteSigner('cambio/example.com', randomBytes(32));
  assert.throws(() => openNote(note, other.verifierKey()));
});

test('the empty tree checkpoint: size 0, root SHA-256 of nothing', () => {
  const empty = createHash('sha256').digest();
  assert.equal(checkpointText('cambio/localhost', 0, empty), `cambio/localhost\n0\n${empty.toString('base64')}\n`);
});
