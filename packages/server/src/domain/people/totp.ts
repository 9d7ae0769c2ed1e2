import { createHmac, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238 via `otpauth`): SHA-1, 6 digits, 30-second steps, a code of the previous, current or
 * next step accepted. The step a code belongs to is returned, so the caller refuses any step at or
 * before the last one used: a code, once accepted, cannot be replayed within its window.
 */
const PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUrl(secretBase32: string, issuer: string, label: string): string {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) }).toString();
}

/** The step of a valid code (±1 step around `now`), or null. */
export function totpStep(secretBase32: string, code: string, now: Date): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) });
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Number(BigInt(now.getTime()) / BigInt(1000 * PERIOD)) + delta;
}

/** The code of a step (tests and the sandbox use it; a person's authenticator app does this). */
export function totpCode(secretBase32: string, at: Date): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) }).generate({
    timestamp: at.getTime(),
  });
}

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes `xxxx-xxxx` (about 39 bits each), shown once. */
export function newRecoveryCodes(): string[] {
  const one = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: 10 }, () => {
    const c = one();
    return `${c.slice(0, 4)}-${c.slice(4)}`;
  });
}

/** A recovery code is stored as HMAC-SHA-256 under the server secret, normalized (case, spaces, dash). */
export function hashRecoveryCode(serverSecret: string, code: string): string {
  const norm = code.toLowerCase().replace(/[\s-]/g, '');
  return createHmac('sha256', serverSecret).update(`recovery|${norm}`).digest('hex');
}

export const looksLikeRecoveryCode = (code: string) => /^[a-z0-9]{4}-?[a-z0-9]{4}$/i.test(code.trim());
