import { cleanBankDestination, maskedSummary, type BankDestinationInput } from './bank-destination.ts';
import type { DestinationSealer } from './sealer.ts';

/** A destination ready to be stored: what identifies the account is sealed, the rest is plain. */
export interface NewDestination {
  label: string; assetSymbol: string; bankName: string; accountKind: string; holderName: string;
  accountNumberEnc: string; holderDocumentEnc: string; fingerprint: string; summary: string; cooldownUntil: Date;
}

/** Validates, normalizes and seals a registration; the cooldown starts now (CAMBIO_DESTINATION_COOLDOWN_MS). */
export function prepareDestination(input: BankDestinationInput, sealer: DestinationSealer, now: Date, cooldownMs: number): NewDestination {
  const c = cleanBankDestination(input);
  return {
    label: c.label, assetSymbol: c.assetSymbol, bankName: c.bankName, accountKind: c.accountKind, holderName: c.holderName,
    accountNumberEnc: sealer.seal(c.accountNumber), holderDocumentEnc: sealer.seal(c.holderDocument),
    fingerprint: sealer.fingerprint(c.bankNameKey, c.accountNumberKey),
    summary: maskedSummary(c.bankName, c.accountKind, c.accountNumber),
    cooldownUntil: new Date(now.getTime() + cooldownMs),
  };
}
