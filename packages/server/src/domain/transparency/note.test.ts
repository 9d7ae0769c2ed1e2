import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { checkpointText, NoteSigner } from './note.ts';

// The independent parser and verifier (test/transparency-verifier.ts) shares no code with note.ts.
import { openNote, parseCheckpoint } from '../../../test/transparency-verifier.ts';

test('signs exactly as the Go reference signed-note example (same key, same bytes)', () => {
  // golang.org/x/mod/sumdb/note's documented example: PRIVATE+KEY+PeterNeumann+c74f20a3+AYEK… (0x01 ‖ seed).
  const seed = Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1);
  const signer = new NoteSigner('PeterNeumann', seed);
  assert.equal(signer.verifierKey(), 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW');
  const text = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
  assert.equal(
    signer.sign(text),
    `${text}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
  );
});

test('a checkpoint note is parsed and verified by an independent reader; any altered byte fails', () => {
  const signer = new NoteSigner('cambio/example.com', randomBytes(32));
  const root = createHash('sha256').update('r').digest();
  const note = signer.sign(checkpointText('cambio/example.com', 1234, root));
  const cp = parseCheckpoint(openNote(note, signer.verifierKey()));
  assert.deepEqual(cp, { origin: 'cambio/example.com', size: 1234, root });
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
