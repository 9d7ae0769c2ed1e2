import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerRef } from '../../domain/idempotency/answer-ref.ts';
import { ok } from '../envelope.ts';

/**
 * A creating route whose answer is the record it wrote, exactly as written (a quote, an order, a withdrawal):
 * under an Idempotency-Key, its transaction keeps a reference to the record (the id of what it returns), and
 * a replay renders the record as created again with the first answer's trace id and timestamp, by the route's
 * schema: byte for byte the first answer. `config` goes in the route's config (`answerByRef`); `send` answers.
 * `load` reads the record as it was created, or null when it is not the requester's.
 */
export function answerByRef<T>(
  status: 200 | 201,
  render: (result: T) => unknown,
  load: (id: string, req: FastifyRequest) => Promise<T | null>,
) {
  const envelope = (traceId: string, timestamp: string, result: T) => ({ ...ok(traceId, render(result)), timestamp });
  return {
    config: {
      status,
      replay: async (ref: AnswerRef, req: FastifyRequest) => {
        const result = await load(ref.id, req);
        if (result === null) throw new Error(`idempotency: the record ${ref.id} a kept answer names is gone or not the requester's`);
        return envelope(ref.traceId, ref.timestamp, result);
      },
    },
    send: (req: FastifyRequest, reply: FastifyReply, result: T) =>
      reply.code(status).send(envelope(req.id, req.idempotencyKey?.at ?? new Date().toISOString(), result)),
  };
}
