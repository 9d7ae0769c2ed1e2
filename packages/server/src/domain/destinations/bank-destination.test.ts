import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DomainError } from '../errors.ts';
import {
  accountNumberKey,
  bankNameKey,
  cleanBankDestination,
  isUsable,
  maskedSummary,
  type BankDestinationInput,
} from './bank-destination.ts';
import { openDestination, prepareDestination } from './register.ts';
import { DestinationSealer } from './sealer.ts';

const input: BankDestinationInput = {
  label: '  Main   account ',
  assetSymbol: 'USD',
  bankName: 'Banco  Nación',
  accountKind: 'checking',
  accountNumber: '0001-2345 6789',
  holderName: 'Ana Pérez',
  holderDocument: '20-12345678-9',
};

describe('bank destination rules', () => {
  test('normalizes the account number and the bank name for duplicate detection', () => {
    assert.equal(accountNumberKey('0001-2345 67ab'), '0001234567AB');
    assert.equal(bankNameKey('Banco  Nación'), 'BANCONACION');
    assert.equal(bankNameKey('BANCO NACION'), bankNameKey('banco nación'));
  });

  test('tidies the texts and refuses what is only spaces', () => {
    const c = cleanBankDestination(input);
    assert.equal(c.label, 'Main account');
    assert.equal(c.bankName, 'Banco Nación');
    assert.equal(c.accountNumber, '000123456789');
    assert.equal(cleanBankDestination({ ...input, holderDocument: ' ein  12-3456789 ' }).holderDocument, 'EIN 12-3456789');
    const code = (f: () => unknown) => {
      try {
        f();
        return null;
      } catch (e) {
        return (e as DomainError).code;
      }
    };
    assert.equal(
      code(() => cleanBankDestination({ ...input, label: '   ' })),
      'request.validation_failed',
    );
    assert.equal(
      code(() => cleanBankDestination({ ...input, holderName: ' - ' })),
      'request.validation_failed',
    );
    assert.equal(
      code(() => cleanBankDestination({ ...input, accountNumber: 'AB-12-3' })),
      'request.validation_failed',
    );
    assert.equal(
      code(() => cleanBankDestination({ ...input, holderDocument: ' .- ' })),
      'request.validation_failed',
    );
  });

  test('a refusal never carries the account number', () => {
    try {
      cleanBankDestination({ ...input, label: ' ' });
      assert.fail('expected a refusal');
    } catch (e) {
      assert.ok(!JSON.stringify((e as DomainError).params).includes('6789'));
    }
  });

  test('the summary shows the bank, the kind and at most 4, never more than half, of the last characters', () => {
    assert.equal(maskedSummary('Banco Nación', 'checking', '0001-2345 6789'), 'Banco Nación · checking ···· 6789');
    assert.equal(maskedSummary('B1', 'savings', '123456'), 'B1 · savings ···· 456');
    assert.equal(maskedSummary('B1', 'savings', '1234'), 'B1 · savings ···· 34');
  });

  test('usable needs both the cooldown and the registration in the market', () => {
    const t = new Date('2026-01-02T00:00:00Z');
    const before = new Date(t.getTime() - 1);
    assert.equal(isUsable({ cooldownUntil: t, registeredInMarketAt: null }, t), false);
    assert.equal(isUsable({ cooldownUntil: t, registeredInMarketAt: before }, before), false);
    assert.equal(isUsable({ cooldownUntil: t, registeredInMarketAt: before }, t), true);
  });
});

describe('destination sealer', () => {
  const sealer = new DestinationSealer('a-server-secret-of-at-least-32-characters');
  const row = { id: 'dst_1', organizationId: 'org_1' };
  const at = { organizationId: 'org_1', destinationId: 'dst_1', field: 'account_number' as const };

  test('seals with a fresh IV and opens back; the sealed text does not contain the number', () => {
    const a = sealer.seal('000123456789', at);
    const b = sealer.seal('000123456789', at);
    assert.notEqual(a, b);
    assert.ok(!a.includes('000123456789'));
    assert.equal(sealer.open(a, at), '000123456789');
  });

  test('a tampered value or another secret does not open', () => {
    const a = sealer.seal('000123456789', at);
    const [f, kid, b64] = a.split('.') as [string, string, string];
    const raw = Buffer.from(b64, 'base64');
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1;
    assert.throws(() => sealer.open(`${f}.${kid}.${raw.toString('base64')}`, at));
    assert.throws(() => new DestinationSealer('another-server-secret-of-32-characters!!').open(a, at));
  });

  test('the fingerprint depends on the normalized account and the secret', () => {
    const p1 = prepareDestination(input, sealer, row, new Date(0), 1000);
    const p2 = prepareDestination({ ...input, bankName: 'BANCO NACION', accountNumber: '000123456789' }, sealer, row, new Date(0), 1000);
    assert.equal(p1.fingerprint, p2.fingerprint);
    assert.notEqual(
      p1.fingerprint,
      prepareDestination({ ...input, accountNumber: '000123456788' }, sealer, row, new Date(0), 1000).fingerprint,
    );
    assert.notEqual(
      p1.fingerprint,
      new DestinationSealer('another-server-secret-of-32-characters!!').fingerprint('BANCONACION', '000123456789'),
    );
    assert.equal(p1.cooldownUntil.getTime(), 1000);
    assert.equal(
      openDestination(sealer, { ...row, accountNumberEnc: p1.accountNumberEnc, holderDocumentEnc: p1.holderDocumentEnc }).holderDocument,
      '20-12345678-9',
    );
  });
});
