import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerSealer } from './idempotency/answer-sealer.ts';
import { TotpSealer } from './people/seal.ts';

const SECRET = 'test-secret-0123456789abcdef0123456789';
// Sealed by the sealers as they were before they moved onto SealedBox: values already stored must still open.
const STORED_TOTP = 't1.Q5KxNYaGtzzq/EpaYS20UjWP64aTMOX6kPm0w/Is8Dm6KIAx4DbT439OFHI=';
const STORED_ANSWER = 'a1.QNqrBdKrSoEqhXSGFNBMaV54Kzxy7FcQZCC83Mkzrc8Z9gPqoxB6udF29uPu+eEtXFv05INE';

test('TOTP secrets stored before SealedBox still open; bound to their row and secret', () => {
  const s = new TotpSealer(SECRET);
  const row = { kind: 'staff', id: 'stf_1', field: 'secret' as const };
  assert.equal(s.open(STORED_TOTP, row), 'JBSWY3DPEHPK3PXP');
  assert.throws(() => s.open(STORED_TOTP, { ...row, field: 'pending' }), 'another column');
  assert.throws(() => s.open(STORED_TOTP, { ...row, id: 'stf_2' }), 'another person');
  assert.throws(() => new TotpSealer(`${SECRET}x`).open(STORED_TOTP, row), 'another server secret');
  const fresh = s.seal('JBSWY3DPEHPK3PXP', row);
  assert.match(fresh, /^t1\./);
  assert.notEqual(fresh, STORED_TOTP, 'a fresh IV each time');
  assert.equal(s.open(fresh, row), 'JBSWY3DPEHPK3PXP');
});

test('Idempotency-Key answers stored before SealedBox still open; plain ones kept from before sealing are returned as they are', () => {
  const s = new AnswerSealer(SECRET);
  const at = { scope: 'key:key_1', key: 'idem-1' };
  assert.equal(s.open(STORED_ANSWER, at), '{"status":201,"body":"{}"}');
  assert.throws(() => s.open(STORED_ANSWER, { ...at, key: 'idem-2' }), 'another key');
  assert.equal(s.open('{"status":200}', at), '{"status":200}');
  const fresh = s.seal('{"status":201}', at);
  assert.match(fresh, /^a1\./);
  assert.equal(s.open(fresh, at), '{"status":201}');
});
