/** Answers are kept at least this long after they were given (CONTRACT §10: at least 24 hours). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim older than this whose request never answered (the process died) is abandoned. */
export const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000;
