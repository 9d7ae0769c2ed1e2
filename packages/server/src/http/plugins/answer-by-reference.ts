import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerRef } from '../../domain/idempotency/answer-ref.ts';
import type { AnswerInWork } from '../../store/answers-in-work.ts';
import { DomainError } from '../../domain/errors.ts';
import { ok } from '../envelope.ts';

/**
 * For a creating route whose answer is the record it wrote, exactly as written, and whose store keeps
 * an Idempotency-Key's answer by reference to that record in the statement or transaction that writes it
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
      let unclaimed: 'busy' | 'found' | undefined;
      const keep: AnswerInWork<string> | undefined = claim && {
        answer: (id) => claim.keepRef(status, { id, traceId: req.id, timestamp }),
        kept: () => { claim.keptInWork = true; },
        unclaimed: (busy) => { unclaimed = busy ? 'busy' : 'found'; },
      };
      return {
        keep,
        /**
         * Before the route refuses a request whose key its work was to claim (route config `claimInWork`):
         * the key is claimed now, and what the key already answers wins over the refusal (a replay: true,
         * sent; 409 or 422: thrown). False: the refusal is this key's answer.
         */
        refusing: async (): Promise<boolean> => (claim?.deferred ? claim.deferred.claimNow() : false),
        /** The result, or, when the work could not claim the request's key, what the key answers. */
        send: async (result: T | null): Promise<FastifyReply> => {
          if (unclaimed === 'busy') throw new DomainError('idempotency.in_progress');
          if (unclaimed === 'found') {
            if (claim?.deferred && await claim.deferred.claimNow()) return reply;
            // The row the work met is gone since (released or purged): the key is this request's now, yet
            // its work wrote nothing. It decided nothing: 409, and the claim is released when it is sent.
            throw new DomainError('idempotency.in_progress');
          }
          if (result === null) throw new Error('idempotency: no result, and the key was not reported unclaimed');
          return reply.code(status).send(envelope(req.id, timestamp, result));
        },
      };
    },
  };
}
