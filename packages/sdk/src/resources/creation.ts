import type { Reply } from '../http.ts';
import type { RetryResult } from '../retry.ts';

/**
 * What a creating call did. `created`: the first answer arrived, or a retry after a refusal that
 * proves nothing was taken (408/429/503). `found_after_timeout`: a response never arrived (timeout,
 * broken connection, 500/502/504); the SDK read the list endpoint and found what that attempt
 * created, so it did NOT send again. `resent_after_timeout`: a response never arrived, the SDK
 * found nothing (or the endpoint protects itself), sent again, and this is what the resend created.
 * When the SDK cannot tell (the retries ran out, or the read-back failed), it throws a
 * LostResponseError instead of returning.
 */
export type CreationOutcome = 'created' | 'found_after_timeout' | 'resent_after_timeout';

export interface Creation<T> {
  data: T;
  outcome: CreationOutcome;
  /** HTTP attempts made. */
  attempts: number;
  /** traceId of the answer that created it; null when it was found by reading. */
  traceId: string | null;
  /**
   * The server recognised a retry by its Idempotency-Key and answered what the first attempt created
   * (`Idempotent-Replayed: true`): nothing was created twice.
   */
  replayed: boolean;
}

export function creationOf<T>(r: RetryResult<Reply<T>>): Creation<T> {
  return {
    data: r.value.data,
    outcome: r.found ? 'found_after_timeout' : r.lost ? 'resent_after_timeout' : 'created',
    attempts: r.attempts,
    traceId: r.found ? null : r.value.traceId,
    replayed: r.value.replayed === true,
  };
}

/** A reply assembled from a record found by reading (no traceId: nothing answered the create). */
export function foundReply<T>(data: T): Reply<T> {
  return { data, pagination: null, traceId: null, status: 200 };
}
