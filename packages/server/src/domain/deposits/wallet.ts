import { DomainError } from '../errors.ts';

export interface DepositWallet {
  assetSymbol: string;
  network: string;
  address: string;
  updatedAt: Date;
}

/**
 * Spec rule 7: in the sandbox, deposit addresses are not real. Every sandbox address carries this
 * prefix; the hyphen is outside the base58 and bech32 alphabets, so no chain would accept it.
 */
export const SANDBOX_ADDRESS_PREFIX = 'sandbox-';

/** The address as stored: marked in the sandbox; in production a sandbox address is refused. */
export function walletAddressFor(mode: 'sandbox' | 'production', address: string): string {
  const marked = address.toLowerCase().startsWith(SANDBOX_ADDRESS_PREFIX);
  if (mode === 'sandbox') return marked ? address : `${SANDBOX_ADDRESS_PREFIX}${address}`;
  if (marked) throw new DomainError('request.validation_failed', { detail: 'address is a sandbox address' });
  return address;
}
