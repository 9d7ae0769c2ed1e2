import { createHmac, randomBytes } from 'node:crypto';

/**
 * Opaque secrets of people: session ids (the cookie's value), invitation and password-reset tokens, staff tokens. Each is
 * 32 random bytes (base64url); only its HMAC-SHA-256 under the server secret is stored.
 */
export const newOpaque = () => randomBytes(32).toString('base64url');

export function hashOpaque(serverSecret: string, kind: 'session' | 'invitation' | 'staff_token' | 'password_reset', value: string): string {
  return createHmac('sha256', serverSecret).update(`${kind}|${value}`).digest('hex');
}

/** A staff person's personal token: `ops_<prefix>.<secret>`, the prefix finds the row. */
export function newStaffToken(): { prefix: string; secret: string; token: string } {
  const prefix = randomBytes(9)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '0')
    .slice(0, 12);
  const secret = randomBytes(32).toString('base64url');
  return { prefix, secret, token: `ops_${prefix}.${secret}` };
}

export function parseStaffToken(raw: string): { prefix: string; secret: string } | null {
  const m = /^ops_([a-z0-9]{12})\.([A-Za-z0-9_-]{43})$/.exec(raw);
  return m ? { prefix: m[1]!, secret: m[2]! } : null;
}

/** A password chosen for a person who cannot choose one (the sandbox's demo sign-ins): 20 characters. */
export function newGeneratedPassword(): string {
  return randomBytes(15).toString('base64url');
}
