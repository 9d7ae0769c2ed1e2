/**
 * One key per decision a person confirms (CONTRACT §10). getRandomValues works in any context; the
 * randomUUID of a secure context is not needed.
 */
export function newIdempotencyKey(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return `desk-${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;
}
