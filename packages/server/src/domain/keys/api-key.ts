import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors.ts';

/**
 * API keys are `<tag>_live_<prefix>.<secret>` (spec: Authentication §1). The prefix finds the row;
 * the secret is stored only as HMAC-SHA-256 under the server secret and compared in constant time.
 */
export interface ParsedKey {
  prefix: string;
  secret: string;
}

const PREFIX = /^[a-z0-9]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export function parseApiKey(raw: string | undefined, tag: string): ParsedKey | null {
  if (!raw || raw.length > 200) return null;
  const head = `${tag}_live_`;
  if (!raw.startsWith(head)) return null;
  const rest = raw.slice(head.length);
  const dot = rest.indexOf('.');
  if (dot < 0) return null;
  const prefix = rest.slice(0, dot);
  const secret = rest.slice(dot + 1);
  if (!PREFIX.test(prefix) || !SECRET.test(secret)) return null;
  return { prefix, secret };
}

export function generateApiKey(tag: string): { prefix: string; secret: string; key: string } {
  const prefix = randomBytes(9)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '0')
    .slice(0, 12);
  const secret = randomBytes(32).toString('base64url');
  return { prefix, secret, key: `${tag}_live_${prefix}.${secret}` };
}

export function hashSecret(serverSecret: string, secret: string): string {
  return createHmac('sha256', serverSecret).update(secret).digest('hex');
}

/**
 * An unkeyed SHA-256 of a presented secret: the index under which the auth cache keeps a key it
 * authenticated (store/auth-cache.ts), in memory only, never stored nor logged. A key seen before is found
 * by it without its keyed hash (HMAC costs a fresh key schedule per request); SHA-256's collision resistance
 * makes equal digests the same secret, the one that was checked by hashSecret and sameHash when it was kept.
 */
export function secretDigest(secret: string): string {
  return hash('sha256', secret, 'base64');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A key's expiry as asked for at issue: none, or an instant still in the future (a key born expired is a mistake, 422). */
export function keyExpiry(expiresAt: string | null | undefined, now: Date): Date | null {
  if (!expiresAt) return null;
  const at = new Date(expiresAt);
  if (!(at.getTime() > now.getTime())) throw new DomainError('keys.expiry_in_past');
  return at;
}

/** A hash no secret produces: compared against when the prefix is unknown, so every 401 costs the same. */
export const DUMMY_HASH = '0'.repeat(64);
