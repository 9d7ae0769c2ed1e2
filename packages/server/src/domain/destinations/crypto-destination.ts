import { DomainError } from '../errors.ts';
import { canonicalAddress, checkAddress, type AddressFamily } from './crypto-address.ts';
import { tidy } from './bank-destination.ts';

/**
 * The networks the platform pays out on, by name (the names of GET /deposits/wallets: CCXT's unified
 * network codes at a venue, `bitcoin` in the sandbox), and the address family each uses. Bitcoin's chain
 * carries BTC only; an EVM chain carries any crypto asset. Names are compared without case.
 */
const NETWORKS: Record<string, AddressFamily> = {
  BTC: 'bitcoin',
  BITCOIN: 'bitcoin',
  ETH: 'evm',
  ETHEREUM: 'evm',
  ERC20: 'evm',
  BSC: 'evm',
  BEP20: 'evm',
  ARB: 'evm',
  ARBITRUM: 'evm',
  ARBONE: 'evm',
  OP: 'evm',
  OPTIMISM: 'evm',
  MATIC: 'evm',
  POLYGON: 'evm',
  BASE: 'evm',
  AVAXC: 'evm',
  AVALANCHE: 'evm',
};

/** The address family of a network the platform pays out on for `assetSymbol`; null when it does not. */
export function networkFamily(network: string, assetSymbol: string): AddressFamily | null {
  const family = NETWORKS[network.toUpperCase()];
  if (!family) return null;
  if (family === 'bitcoin' && assetSymbol !== 'BTC') return null;
  return family;
}

export interface CryptoDestinationInput {
  label: string;
  assetSymbol: string;
  network: string;
  address: string;
  memo?: string | undefined;
}

export interface CleanCryptoDestination {
  label: string;
  assetSymbol: string;
  network: string;
  address: string;
  memo: string | null;
  family: AddressFamily;
}

/**
 * Rules of a crypto destination: a network the platform pays `assetSymbol` out on, and an address of that
 * network's family (a testnet address only outside production). Errors never repeat the address.
 */
export function cleanCryptoDestination(i: CryptoDestinationInput, production: boolean): CleanCryptoDestination {
  const label = tidy(i.label);
  if (label.length < 1 || label.length > 80)
    throw new DomainError('request.validation_failed', { detail: 'label must have 1 to 80 characters besides spaces' });
  const family = networkFamily(i.network, i.assetSymbol);
  if (!family) throw new DomainError('destinations.network_not_supported', { network: i.network, asset: i.assetSymbol });
  const address = i.address.trim();
  const check = checkAddress(family, address);
  if (!check.ok) throw new DomainError('destinations.invalid_address', { network: i.network });
  if (check.testnet && production) throw new DomainError('destinations.invalid_address', { network: i.network });
  const memo = i.memo === undefined ? null : tidy(i.memo);
  return {
    label,
    assetSymbol: i.assetSymbol,
    network: i.network,
    address: canonicalAddress(family, address),
    memo: memo === '' ? null : memo,
    family,
  };
}

/** The summary of a crypto destination: the address's first and last four characters and the network, e.g. `bc1q…7k2x (BTC)`. */
export function cryptoSummary(address: string, network: string): string {
  const shown = address.length > 12 ? `${address.slice(0, 4)}…${address.slice(-4)}` : address;
  return `${shown} (${network})`;
}
