import { cleanBankDestination, maskedSummary, type BankDestinationInput } from './bank-destination.ts';
import { cleanCryptoDestination, cryptoSummary, type CryptoDestinationInput } from './crypto-destination.ts';
import type { DestinationSealer } from './sealer.ts';

export type DestinationKind = 'bank' | 'crypto';

/** A destination ready to be stored: what identifies the account is sealed for its row, the rest is plain. */
export interface NewDestination {
  id: string;
  label: string;
  assetSymbol: string;
  bankName: string;
  accountKind: string;
  holderName: string;
  accountNumberEnc: string;
  holderDocumentEnc: string;
  fingerprint: string;
  summary: string;
  cooldownUntil: Date;
  kind: DestinationKind;
  /** A crypto destination's network, address (whole, canonical) and memo; null for a bank account. */
  network: string | null;
  address: string | null;
  memo: string | null;
}

/**
 * Validates, normalizes and seals a registration as row `id` of `organizationId`; the cooldown starts
 * now (CAMBIO_DESTINATION_COOLDOWN_MS).
 */
export function prepareDestination(
  input: BankDestinationInput,
  sealer: DestinationSealer,
  row: { id: string; organizationId: string },
  now: Date,
  cooldownMs: number,
): NewDestination {
  const c = cleanBankDestination(input);
  const binding = { organizationId: row.organizationId, destinationId: row.id };
  return {
    id: row.id,
    label: c.label,
    assetSymbol: c.assetSymbol,
    bankName: c.bankName,
    accountKind: c.accountKind,
    holderName: c.holderName,
    accountNumberEnc: sealer.seal(c.accountNumber, { ...binding, field: 'account_number' }),
    holderDocumentEnc: sealer.seal(c.holderDocument, { ...binding, field: 'holder_document' }),
    fingerprint: sealer.fingerprint(c.bankNameKey, c.accountNumberKey),
    summary: maskedSummary(c.bankName, c.accountKind, c.accountNumber),
    cooldownUntil: new Date(now.getTime() + cooldownMs),
    kind: 'bank',
    network: null,
    address: null,
    memo: null,
  };
}

/**
 * Validates a crypto destination (network and address, crypto-destination.ts) as row `id`: the bank
 * fields stay empty; the fingerprint of the network, asset and address finds the same one registered
 * twice. The address is kept whole: members and staff see it.
 */
export function prepareCryptoDestination(
  input: CryptoDestinationInput,
  sealer: DestinationSealer,
  row: { id: string; organizationId: string },
  now: Date,
  cooldownMs: number,
  production: boolean,
): NewDestination {
  const c = cleanCryptoDestination(input, production);
  return {
    id: row.id,
    label: c.label,
    assetSymbol: c.assetSymbol,
    bankName: '',
    accountKind: '',
    holderName: '',
    accountNumberEnc: '',
    holderDocumentEnc: '',
    fingerprint: sealer.fingerprint(`crypto:${c.network.toUpperCase()}`, `${c.assetSymbol}:${c.address}`),
    summary: cryptoSummary(c.address, c.network),
    cooldownUntil: new Date(now.getTime() + cooldownMs),
    kind: 'crypto',
    network: c.network,
    address: c.address,
    memo: c.memo,
  };
}

/** What a person paying a withdrawal out needs, opened only for the row it was sealed in (SealedValueRefused otherwise). */
export function openDestination(
  sealer: DestinationSealer,
  s: { id: string; organizationId: string; accountNumberEnc: string; holderDocumentEnc: string },
) {
  const binding = { organizationId: s.organizationId, destinationId: s.id };
  return {
    accountNumber: sealer.open(s.accountNumberEnc, { ...binding, field: 'account_number' }),
    holderDocument: sealer.open(s.holderDocumentEnc, { ...binding, field: 'holder_document' }),
  };
}
