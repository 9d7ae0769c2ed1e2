import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { DomainError } from '../errors.ts';
import { COMMON_PASSWORDS } from './common-passwords.ts';

/**
 * Passwords are stored as scrypt (memory-hard; node:crypto): `scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>`.
 * N = 2^15, r = 8, p = 1 (32 MiB per hash), a 16-byte salt, a 32-byte output. The parameters travel with
 * the hash, so a later increase re-hashes at the next sign-in without breaking the old ones.
 */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;
const COST = { logN: 15, r: 8, p: 1 };
const KEYLEN = 32;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  const opts: ScryptOptions = { N, r, p, maxmem: 128 * N * r * p + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEYLEN, opts, (e, key) => (e ? reject(e) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST.logN, COST.r, COST.p);
  return `scrypt$${COST.logN}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A stored hash no password matches, verified when there is no person, so a miss costs what a wrong password costs. */
export const DUMMY_PASSWORD_HASH = `scrypt$${COST.logN}$${COST.r}$${COST.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEYLEN).toString('base64url')}`;

/** Constant-time check of a password against a stored hash; a malformed or absent hash never matches (but still costs one derivation). */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? DUMMY_PASSWORD_HASH).split('$');
  const ok = parts.length === 6 && parts[0] === 'scrypt';
  const [logN, r, p] = ok ? parts.slice(1, 4).map(Number) as [number, number, number] : [COST.logN, COST.r, COST.p];
  const sane = ok && logN >= 10 && logN <= 20 && r >= 1 && r <= 32 && p >= 1 && p <= 4;
  const salt = Buffer.from(sane ? parts[4]! : '', 'base64url');
  const want = Buffer.from(sane ? parts[5]! : '', 'base64url');
  const got = await derive(password, salt.length ? salt : Buffer.alloc(16), sane ? logN : COST.logN, sane ? r : COST.r, sane ? p : COST.p);
  const match = want.length === got.length && timingSafeEqual(want, got);
  return match && stored !== null;
}

/** 422 auth.password_weak: too short, too long, or one of the most common passwords. */
export function assertPasswordStrong(password: string): void {
  const chars = [...password].length;
  if (chars < PASSWORD_MIN) throw new DomainError('auth.password_weak');
  if (chars > PASSWORD_MAX) throw new DomainError('auth.password_weak');
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) throw new DomainError('auth.password_weak');
  if (new Set(lower).size < 4) throw new DomainError('auth.password_weak');
}
