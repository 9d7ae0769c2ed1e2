import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerRef } from '../../domain/idempotency/answer-ref.ts';
import type { AnswerInWork } from '../../store/answers-in-work.ts';
import { ok } from '../envelope.ts';

/**
 * For a creating route whose store keeps an Idempotency-Key's answer in the work's own transaction
 * (store/answers-in-work.ts): `keep` is what the store is given (undefined without a claimed key), and
 * `send` answers the result. The answer kept is the route's response serialized by its own schema for
 * `status`, and when the work kept it, those very bytes are what is sent, so a replay is byte for byte
 * the first answer (its timestamp too).
 */
export function answerInWork<T>(req: FastifyRequest, reply: FastifyReply, status: 200 | 201, render: (result: T) => { [key: string]: unknown }) {
  const claim = req.idempotencyClaim;
  let kept: string | undefined;
  let payload: string | undefined;
  const keep: AnswerInWork<T> | undefined = claim && {
    answer: (result) => {
      payload = reply.serializeInput(render(result), String(status)) as string;
      return claim.keep(status, payload);
    },
    kept: () => {
      claim.keptInWork = true;
      kept = payload;
    },
  };
  return {
    keep,
    send: (result: T) => (kept !== undefined
      ? reply.code(status).type('application/json; charset=utf-8').send(kept)
      : reply.code(status).send(render(result))),
  };
}

/**
 * For a creating route whose answer is the record it wrote, exactly as written, and whose store keeps
 * an Idempotency-Key's answer by reference to that record in the statement that writes it
 * (domain/idempotency/answer-ref.ts): `keep` is given the record's id; `replay` is the route's
 * `replayRef`. The reference carries the envelope's trace id and timestamp, and both the first answer
 * and a replay are serialized by the route's schema from the same record, so they are the same bytes.
 * `load` reads the record as it was created, or null when it is not the requester's.
 */
export function answerByRef<T>(status: 200 | 201, render: (result: T) => unknown, load: (id: string, req: FastifyRequest) => Promise<T | null>) {
  const envelope = (traceId: string, timestamp: string, result: T) => ({ ...ok(traceId, render(result)), timestamp });
  return {
    replay: async (ref: AnswerRef, req: FastifyRequest) => {
      const result = await load(ref.id, req);
      if (result === null) throw new Error(`idempotency: the record ${ref.id} a kept answer names is gone or not the requester's`);
      return envelope(ref.traceId, ref.timestamp, result);
    },
    inWork: (req: FastifyRequest, reply: FastifyReply) => {
      const claim = req.idempotencyClaim;
      const timestamp = new Date().toISOString();
      const keep: AnswerInWork<string> | undefined = claim && {
        answer: (id) => claim.keepRef(status, { id, traceId: req.id, timestamp }),
        kept: () => { claim.keptInWork = true; },
      };
      return { keep, send: (result: T) => reply.code(status).send(envelope(req.id, timestamp, result)) };
    },
  };
}
