/**
 * Sign-in throttling (docs/design/people-and-apps.md): failures counted per account (the email) and per address in a
 * window; reaching the limit locks that key until the window's lock ends. A success clears the account.
 */
export const THROTTLE = {
  windowMs: 15 * 60_000,
  account: { failures: 5, lockMs: 15 * 60_000 },
  address: { failures: 20, lockMs: 15 * 60_000 },
} as const;

export const accountKey = (kind: 'member' | 'staff', email: string) => `${kind}:account:${email.toLowerCase()}`;
export const addressKey = (kind: 'member' | 'staff', ip: string) => `${kind}:address:${ip}`;
