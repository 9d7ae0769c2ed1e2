/**
 * How long an Idempotency-Key is kept after its transaction claimed it: 24 hours (docs/api-guide.md) after an
 * answer given within 5 minutes of the claim, the longest a request runs.
 */
export const IDEMPOTENCY_KEPT_MS = (24 * 60 + 5) * 60 * 1000;
