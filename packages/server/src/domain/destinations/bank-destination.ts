import { DomainError } from '../errors.ts';

export type AccountKind = 'savings' | 'checking';

/** A registration as the client sent it (already shape-checked by the wire schema). */
export interface BankDestinationInput {
  label: string;
  assetSymbol: string;
  bankName: string;
  accountKind: AccountKind;
  accountNumber: string;
  holderName: string;
  holderDocument: string;
}

/** What is kept: texts tidied, the account number and document normalized (what identifies them, nothing else). */
export interface CleanBankDestination extends BankDestinationInput {
  accountNumberKey: string;
  bankNameKey: string;
}

/** Trims and collapses runs of whitespace: "  Banco   Nación " → "Banco Nación". */
export const tidy = (s: string) => s.trim().replace(/\s+/g, ' ');

/** The account number as the bank reads it: digits and letters only, upper case ("0123-4567 89ab" → "0123456789AB"). */
export const accountNumberKey = (s: string) => s.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/** The bank name without accents, case, spaces or punctuation, so "Banco Nación" and "BANCO NACION" are one bank. */
export const bankNameKey = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toUpperCase();

function need(ok: boolean, detail: string) {
  if (!ok) throw new DomainError('request.validation_failed', { detail });
}

/**
 * Rules the wire schema cannot say: texts that are only spaces, and the lengths after tidying.
 * Messages name the field, never its value (the value may be a full account number).
 */
export function cleanBankDestination(i: BankDestinationInput): CleanBankDestination {
  const label = tidy(i.label);
  const bankName = tidy(i.bankName);
  const holderName = tidy(i.holderName);
  const accountNumber = accountNumberKey(i.accountNumber);
  const holderDocument = tidy(i.holderDocument).toUpperCase();
  need(label.length >= 1 && label.length <= 80, 'label must have 1 to 80 characters besides spaces');
  need(bankName.length >= 2 && bankName.length <= 80, 'bankName must have 2 to 80 characters besides spaces');
  need(bankNameKey(bankName).length >= 2, 'bankName must contain letters or digits');
  need(holderName.length >= 2 && holderName.length <= 120, 'holderName must have 2 to 120 characters besides spaces');
  need(/\p{L}/u.test(holderName), 'holderName must contain letters');
  need(accountNumber.length >= 4 && (accountNumber.match(/[0-9]/g)?.length ?? 0) >= 4, 'accountNumber must contain at least 4 digits');
  need(/[0-9A-Z]/.test(holderDocument), 'holderDocument must contain letters or digits');
  return {
    label,
    assetSymbol: i.assetSymbol,
    bankName,
    accountKind: i.accountKind,
    accountNumber,
    holderName,
    holderDocument,
    accountNumberKey: accountNumber,
    bankNameKey: bankNameKey(bankName),
  };
}

/**
 * Masked summary: bank, kind and the last digits: enough to recognize, never enough to copy. At most
 * four characters and never more than half of the number are shown (a 6-character account shows 3).
 */
export function maskedSummary(bankName: string, accountKind: string, accountNumber: string): string {
  const key = accountNumberKey(accountNumber);
  const shown = Math.min(4, key.length >> 1);
  return `${tidy(bankName)} · ${accountKind} ···· ${key.slice(key.length - shown)}`;
}

/**
 * Spec: usable only when the cooldown has passed AND the operator registered it in the market, in either
 * order; one that waits for (or was refused by) the organization's members never is (docs/controls.md).
 */
export const isUsable = (d: { cooldownUntil: Date; registeredInMarketAt: Date | null; state?: string }, now: Date) =>
  (d.state ?? 'active') === 'active' && d.registeredInMarketAt !== null && now.getTime() >= d.cooldownUntil.getTime();
