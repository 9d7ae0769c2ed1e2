import { randomBytes } from 'node:crypto';

/**
 * A declaration's reference: 8 characters a person can dictate over the phone, grouped `K7QM-3XPA`.
 * The alphabet leaves out 0/O, 1/I/L and U (read aloud, they are confused). It is not the matching
 * key (the amount is), so it need not be unique; 30^8 makes a repeat rare anyway.
 */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newReference(bytes: (n: number) => Uint8Array = randomBytes): string {
  const out: string[] = [];
  // Rejection sampling keeps every character equally likely.
  const cutoff = 256 - (256 % REFERENCE_ALPHABET.length);
  while (out.length < 8) {
    for (const b of bytes(16)) {
      if (b < cutoff && out.length < 8) out.push(REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]!);
    }
  }
  return `${out.slice(0, 4).join('')}-${out.slice(4).join('')}`;
}

/**
 * A reference as a person typed it from a transfer's description (`k7qm 3xpa`, `K7QM3XPA`): upper case,
 * spaces gone, the dash where it belongs; null when it cannot be one.
 */
export function readReference(text: string): string | null {
  const t = text.toUpperCase().replace(/[\s-]+/g, '');
  if (t.length !== 8 || [...t].some((c) => !REFERENCE_ALPHABET.includes(c))) return null;
  return `${t.slice(0, 4)}-${t.slice(4)}`;
}
