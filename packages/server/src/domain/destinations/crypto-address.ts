import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';

/**
 * Addresses of the chains the platform pays out to (docs/market.md "Crypto destinations"), checked with
 * maintained libraries (@scure/base's bech32, bech32m and base58check, @noble/hashes' keccak-256): never a
 * hand-rolled checksum.
 */
export type AddressFamily = 'bitcoin' | 'evm';

/** Whether the address belongs to the main chain or a test chain; null when it is not an address of the family. */
export type AddressCheck = { ok: true; testnet: boolean } | { ok: false };

const base58check = createBase58check(sha256);

const BECH32_PREFIXES: Record<string, boolean> = { bc: false, tb: true, bcrt: true };
// Version bytes of base58check addresses: P2PKH and P2SH, on the main chain and on testnet/regtest.
const BASE58_VERSIONS: Record<number, boolean> = { 0x00: false, 0x05: false, 0x6f: true, 0xc4: true };

/** A Bitcoin address: bech32 (segwit v0, BIP 173), bech32m (v1+, BIP 350) or base58check (P2PKH, P2SH). */
export function checkBitcoinAddress(address: string): AddressCheck {
  const lower = address.toLowerCase();
  const sep = lower.lastIndexOf('1');
  const prefix = sep > 0 ? lower.slice(0, sep) : '';
  if (prefix in BECH32_PREFIXES && (address === lower || address === address.toUpperCase())) {
    return checkSegwit(lower, BECH32_PREFIXES[prefix]!);
  }
  try {
    const bytes = base58check.decode(address);
    const testnet = BASE58_VERSIONS[bytes[0]!];
    if (bytes.length !== 21 || testnet === undefined) return { ok: false };
    return { ok: true, testnet };
  } catch {
    return { ok: false };
  }
}

function checkSegwit(address: string, testnet: boolean): AddressCheck {
  let decoded: { prefix: string; words: number[] };
  let variant: 'bech32' | 'bech32m';
  try {
    decoded = bech32.decode(address as `${string}1${string}`, 90);
    variant = 'bech32';
  } catch {
    try {
      decoded = bech32m.decode(address as `${string}1${string}`, 90);
      variant = 'bech32m';
    } catch {
      return { ok: false };
    }
  }
  const [version, ...rest] = decoded.words;
  if (version === undefined || version > 16) return { ok: false };
  let program: Uint8Array;
  try {
    program = bech32.fromWords(rest);
  } catch {
    return { ok: false };
  }
  if (version === 0) {
    // BIP 173: v0 is bech32, and its program is a 20-byte key hash or a 32-byte script hash.
    if (variant !== 'bech32' || (program.length !== 20 && program.length !== 32)) return { ok: false };
  } else if (variant !== 'bech32m' || program.length < 2 || program.length > 40) {
    // BIP 350: v1 and later are bech32m, with a program of 2 to 40 bytes.
    return { ok: false };
  }
  return { ok: true, testnet };
}

/** EIP-55: each letter of the address is upper case where the keccak-256 of the lower-case hex has a nibble ≥ 8. */
export function eip55(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  }
  return out;
}

/** An EVM address: 0x and 20 bytes of hex; a mixed-case one must pass its EIP-55 checksum. The same on every EVM chain. */
export function checkEvmAddress(address: string): AddressCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return { ok: false };
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return { ok: true, testnet: false };
  return eip55(address) === address ? { ok: true, testnet: false } : { ok: false };
}

export function checkAddress(family: AddressFamily, address: string): AddressCheck {
  return family === 'bitcoin' ? checkBitcoinAddress(address) : checkEvmAddress(address);
}

/**
 * The address as it is kept and compared: a bech32 address in lower case (its case carries nothing), an
 * EVM address with its EIP-55 checksum (what block explorers and venues show), base58 as written.
 */
export function canonicalAddress(family: AddressFamily, address: string): string {
  if (family === 'evm') return eip55(address);
  const lower = address.toLowerCase();
  return /^(bc|tb|bcrt)1/.test(lower) && (address === lower || address === address.toUpperCase()) ? lower : address;
}
