import assert from 'node:assert/strict';
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { DestinationSealer, SealedValueRefused, type SealBinding } from './sealer.ts';

const SECRET = 'a-server-secret-of-at-least-32-characters';
const sealer = new DestinationSealer(SECRET);
const rowA: SealBinding = { organizationId: 'org_a', destinationId: 'dst_a', field: 'account_number' };

/** A value as the first release wrote it: v1, no key id, no associated data. */
function legacyV1(secret: string, plain: string): string {
  const key = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'withdrawal-destinations/encryption', 32));
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return `v1.${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
}

describe('destination sealer: values bound to their row', () => {
  test('a stored value is v2 with the key id, and opens for its row only', () => {
    const v = sealer.seal('000123456789', rowA);
    assert.match(v, new RegExp(`^v2\\.${sealer.kid}\\.[A-Za-z0-9+/=]+$`));
    assert.match(sealer.kid, /^[0-9a-f]{8}$/);
    assert.ok(!v.includes('000123456789'));
    assert.equal(sealer.open(v, rowA), '000123456789');
  });

  test('moved to another row, organization or column, it is refused, never returned', () => {
    const v = sealer.seal('000123456789', rowA);
    for (const other of [
      { ...rowA, destinationId: 'dst_b' },
      { ...rowA, organizationId: 'org_b' },
      { ...rowA, field: 'holder_document' as const },
    ]) {
      assert.throws(() => sealer.open(v, other), SealedValueRefused, JSON.stringify(other));
    }
  });

  test('legacy v1 values are still read; altered or foreign ones are not', () => {
    const v1 = legacyV1(SECRET, '000123456789');
    assert.equal(sealer.open(v1, rowA), '000123456789');
    const raw = Buffer.from(v1.slice(3), 'base64');
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1;
    assert.throws(() => sealer.open(`v1.${raw.toString('base64')}`, rowA), SealedValueRefused);
    assert.throws(() => sealer.open(legacyV1('a-secret-this-process-never-held-0123456789', 'x'), rowA), SealedValueRefused);
  });

  test('another secret has another key id and opens nothing of this one', () => {
    const other = new DestinationSealer('another-server-secret-of-32-characters!!');
    assert.notEqual(other.kid, sealer.kid);
    const v = sealer.seal('000123456789', rowA);
    assert.throws(() => other.open(v, rowA), SealedValueRefused);
    assert.throws(() => other.open(legacyV1(SECRET, 'x'), rowA), SealedValueRefused);
    assert.throws(() => sealer.open(other.seal('y', rowA), rowA), /sealed under key/);
    assert.equal(other.open(other.seal('y', rowA), rowA), 'y');
    assert.equal(sealer.open(v, rowA), '000123456789');
  });

  test('a tampered value, a truncated one or an unknown format is refused', () => {
    const v = sealer.seal('000123456789', rowA);
    const [f, kid, b64] = v.split('.') as [string, string, string];
    const raw = Buffer.from(b64, 'base64');
    raw[20] = raw[20]! ^ 1;
    assert.throws(() => sealer.open(`${f}.${kid}.${raw.toString('base64')}`, rowA), SealedValueRefused);
    assert.throws(() => sealer.open(`${f}.${kid}.AAAA`, rowA), SealedValueRefused);
    assert.throws(() => sealer.open(`v3.${kid}.${b64}`, rowA), SealedValueRefused);
    assert.throws(() => sealer.open('000123456789', rowA), SealedValueRefused);
  });
});
