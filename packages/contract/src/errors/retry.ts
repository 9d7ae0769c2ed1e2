/** Retry advice per status, exactly as the spec's "Status codes" table says. */
export type RetryAdvice = 'never' | 'read_state_first' | 'backoff' | 'once';

export function retryAdviceFor(status: number): RetryAdvice {
  if (status === 404 || status === 409 || status === 410) return 'read_state_first';
  if ([408, 429, 502, 503, 504].includes(status)) return 'backoff';
  if (status >= 500) return 'once';
  return 'never';
}
