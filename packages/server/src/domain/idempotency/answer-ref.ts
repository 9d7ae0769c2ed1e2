/**
 * An Idempotency-Key's answer kept by reference: instead of the answer's bytes, the id of the record
 * the request created, with the envelope's trace id and timestamp. A route whose answer is the record
 * exactly as it was created (a quote, an order, a withdrawal: nothing secret in them) keeps this in the
 * statement or transaction that writes the record, before the record's fields are known to the process; a replay renders the record
 * as created again, by the same serializer, so it is byte for byte the first answer. Stored as `r1.…`.
 */
export interface AnswerRef {
  id: string;
  traceId: string;
  timestamp: string;
}

const FORMAT = 'r1.';

export const encodeAnswerRef = (r: AnswerRef): string => FORMAT + JSON.stringify([r.id, r.traceId, r.timestamp]);

/** The reference a kept answer holds; null for an answer kept as bytes. */
export function decodeAnswerRef(stored: string): AnswerRef | null {
  if (!stored.startsWith(FORMAT)) return null;
  const v: unknown = JSON.parse(stored.slice(FORMAT.length));
  if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'string'))
    throw new Error('idempotency: a kept reference is malformed');
  const [id, traceId, timestamp] = v as [string, string, string];
  return { id, traceId, timestamp };
}
