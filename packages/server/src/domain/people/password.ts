import { createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
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
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEYLEN, opts, (e, key) => (e ? reject(e) : resolve(key))),
  );
}

/**
 * The salt of every password of one email (of one kind of person): keyed by the service's secret, so it
 * is unknown outside, and the same for each of the email's accounts, so one derivation checks a sign-in
 * against all of them and its cost says nothing about how many there are.
 */
export function emailSalt(secret: string, kind: string, email: string): Buffer {
  return createHmac('sha256', secret).update(`password-salt\0${kind}\0${email.trim().toLowerCase()}`).digest().subarray(0, 16);
}

export async function hashPassword(password: string, salt: Buffer = randomBytes(16)): Promise<string> {
  const key = await derive(password, salt, COST.logN, COST.r, COST.p);
  return `scrypt$${COST.logN}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A stored hash no password matches, verified when there is no person, so a miss costs what a wrong password costs. */
export const DUMMY_PASSWORD_HASH = `scrypt$${COST.logN}$${COST.r}$${COST.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEYLEN).toString('base64url')}`;

/** Constant-time check of a password against a stored hash; a malformed or absent hash never matches (but still costs one derivation). */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const h = parse(stored);
  const got = await derive(password, h.salt, h.logN, h.r, h.p);
  const match = h.want.length === got.length && timingSafeEqual(h.want, got);
  return match && stored !== null;
}

/**
 * Which of these stored hashes the password matches (the first), or -1. Hashes sharing their salt and
 * cost (an email's accounts, see emailSalt) share one derivation; with no hash, the dummy one is derived,
 * so zero, one or several accounts cost the same.
 */
export async function verifyAgainst(password: string, stored: Array<string | null>): Promise<number> {
  if (stored.length === 0) {
    await verifyPassword(password, null);
    return -1;
  }
  const derived = new Map<string, Promise<Buffer>>();
  let found = -1;
  for (const [i, h] of stored.entries()) {
    const parsed = parse(h);
    const group = `${parsed.logN}$${parsed.r}$${parsed.p}$${parsed.salt.toString('base64url')}`;
    if (!derived.has(group)) derived.set(group, derive(password, parsed.salt, parsed.logN, parsed.r, parsed.p));
    const got = await derived.get(group)!;
    const match = parsed.want.length === got.length && timingSafeEqual(parsed.want, got) && h !== null;
    if (match && found < 0) found = i;
  }
  return found;
}

/** A stored hash made with another salt (before emailSalt) or another cost: re-hashed at its next sign-in. */
export function needsRehash(stored: string | null, salt: Buffer): boolean {
  const h = parse(stored);
  return stored === null || !h.salt.equals(salt) || h.logN !== COST.logN || h.r !== COST.r || h.p !== COST.p;
}

function parse(stored: string | null): { logN: number; r: number; p: number; salt: Buffer; want: Buffer } {
  const parts = (stored ?? DUMMY_PASSWORD_HASH).split('$');
  const ok = parts.length === 6 && parts[0] === 'scrypt';
  const [logN, r, p] = ok ? (parts.slice(1, 4).map(Number) as [number, number, number]) : [COST.logN, COST.r, COST.p];
  const sane = ok && logN >= 10 && logN <= 20 && r >= 1 && r <= 32 && p >= 1 && p <= 4;
  const salt = Buffer.from(sane ? parts[4]! : '', 'base64url');
  return {
    logN: sane ? logN : COST.logN,
    r: sane ? r : COST.r,
    p: sane ? p : COST.p,
    salt: salt.length ? salt : Buffer.alloc(16),
    want: Buffer.from(sane ? parts[5]! : '', 'base64url'),
  };
}

/**
 * 422 auth.password_weak: too short, too long, or one of the most common passwords; 422
 * auth.password_repetitive: one short group repeated (`abcdabcdabcd`); with the account's email, 422
 * auth.password_contains_email when it holds the email or the part before `@` (when that is 4 or more
 * characters); with the current password, 422 auth.password_unchanged when it is the same.
 */
export function assertPasswordStrong(password: string, account: { email?: string; current?: string } = {}): void {
  const chars = [...password].length;
  if (chars < PASSWORD_MIN) throw new DomainError('auth.password_weak');
  if (chars > PASSWORD_MAX) throw new DomainError('auth.password_weak');
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) throw new DomainError('auth.password_weak');
  if (new Set(lower).size < 4) throw new DomainError('auth.password_weak');
  if (repeatsAGroup(lower)) throw new DomainError('auth.password_repetitive');
  const email = account.email?.trim().toLowerCase();
  if (email) {
    const local = email.split('@')[0] ?? '';
    if (lower.includes(email) || (local.length >= 4 && lower.includes(local))) throw new DomainError('auth.password_contains_email');
  }
  if (account.current !== undefined && account.current.normalize('NFC') === password.normalize('NFC'))
    throw new DomainError('auth.password_unchanged');
}

/** The whole password is one group written at least twice over (`abcabcabcabc`, `passwordpassword`). */
function repeatsAGroup(lower: string): boolean {
  const cs = [...lower];
  for (let size = 1; size * 2 <= cs.length; size++) {
    if (cs.every((c, i) => c === cs[i % size])) return true;
  }
  return false;
}
