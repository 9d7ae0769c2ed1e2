/** The session cookies (docs/design/people-and-apps.md): opaque ids, HttpOnly, SameSite=Strict, Path=/, Secure in production. */
export const MEMBER_COOKIE = 'cambio_member';
export const STAFF_COOKIE = 'cambio_staff';
export const cookieOf = (kind: 'member' | 'staff') => (kind === 'member' ? MEMBER_COOKIE : STAFF_COOKIE);

/** The value of one cookie in a Cookie header, or undefined (first one wins; never decoded: ids are base64url). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const v = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(v) ? v : undefined;
    }
  }
  return undefined;
}

export function sessionCookie(name: string, value: string, opts: { secure: boolean; maxAgeS: number }): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${opts.maxAgeS}${opts.secure ? '; Secure' : ''}`;
}

export function clearedCookie(name: string, secure: boolean): string {
  return `${name}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
