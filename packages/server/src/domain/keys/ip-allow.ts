/** Whether a client address is allowed by a key's list (exact addresses; IPv4-mapped IPv6 normalized). */
export function ipAllowed(allowed: readonly string[] | null, ip: string): boolean {
  if (!allowed || allowed.length === 0) return true;
  const norm = (a: string) => (a.startsWith('::ffff:') ? a.slice(7) : a);
  const me = norm(ip);
  return allowed.some((a) => norm(a) === me);
}
