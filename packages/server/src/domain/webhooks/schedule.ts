/**
 * When a failed delivery is tried again (docs/api-guide.md: exponential backoff for about three days).
 * After the n-th failed attempt of a round (1-based) the next waits 30 s · 2^(n−1), at most 12 h, times a
 * jitter factor in [0.75, 1.25) so that deliveries failing together do not return together. Sixteen
 * retries: 30 s, 1 min, 2 min … 8.5 h, then 12 h five times, about 77 h (3.2 days) in all; the
 * seventeenth failure gives the delivery up (`failed`; it can still be replayed).
 */
export const RETRY_BASE_MS = 30_000;
export const RETRY_CAP_MS = 12 * 3_600_000;
export const MAX_ATTEMPTS = 17;

/** An endpoint that has answered nothing but failures for this long is disabled (and its organization told). */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/** The longest an attempt may take (docs/api-guide.md: a 2xx within 10 s is delivered). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** How long a claim holds a delivery against other workers: well over one attempt, so a live attempt is never taken over. */
export const CLAIM_LEASE_MS = 60_000;

/**
 * The longest an attempt under a lease of `leaseMs` may take: ATTEMPT_TIMEOUT_MS, or half the lease when
 * the lease is shorter than two of those (CAMBIO_WEBHOOK_LEASE_MS), so an attempt still ends inside its claim.
 */
export function attemptTimeoutMs(leaseMs: number): number {
  return Math.min(ATTEMPT_TIMEOUT_MS, Math.trunc(leaseMs / 2));
}

/** The un-jittered wait after the n-th failed attempt of a round. */
export function baseDelayMs(failedAttempts: number): number {
  const n = Math.max(1, failedAttempts);
  return n > 20 ? RETRY_CAP_MS : Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** (n - 1));
}

/** The wait after the n-th failed attempt, jittered; null when the round is over (give up). `random` in [0, 1). */
export function retryDelayMs(failedAttempts: number, random: number = Math.random()): number | null {
  if (failedAttempts >= MAX_ATTEMPTS) return null;
  return Math.trunc(baseDelayMs(failedAttempts) * (0.75 + random / 2));
}

/**
 * Whether an endpoint that has failed for `failingMs` without a success is disabled now: after
 * `disableAfterMs`, or, when this delivery's round was just given up (its jittered schedule may end a
 * little sooner than the streak's limit), after half of it.
 */
export function endpointGivesUp(failingMs: number, roundGivenUp: boolean, disableAfterMs: number = DISABLE_AFTER_MS): boolean {
  return failingMs >= disableAfterMs || (roundGivenUp && failingMs >= disableAfterMs / 2);
}
