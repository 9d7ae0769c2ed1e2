import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerRef } from '../../domain/idempotency/answer-ref.ts';
import type { AnswerInWork } from '../../store/answers-in-work.ts';
import { DomainError } from '../../domain/errors.ts';
import { ok } from '../envelope.ts';

/**
 * The one way a creating route runs its use case under an Idempotency-Key (CONTRACT §10), for a route
 * whose answer is the record it wrote, exactly as written: `run` hands the use case the key's answer to
 * keep (`keep`, a reference to the record: domain/idempotency/answer-ref.ts), which the use case's own
 * statement or transaction keeps with the record, so the record and its answer commit together. The
 * reference carries the envelope's trace id and timestamp, and both the first answer and a replay
 * (`replay`, the route's `replayRef`) are serialized by the route's schema from the same record, so they
 * are the same bytes. `load` reads the record as it was created, or null when it is not the requester's.
 */
export function answerByRef<T>(
  status: 200 | 201,
  render: (result: T) => unknown,
  load: (id: string, req: FastifyRequest) => Promise<T | null>,
) {
  const envelope = (traceId: string, timestamp: string, result: T) => ({ ...ok(traceId, render(result)), timestamp });
  /** The request's key, as its use case keeps the answer (`keep`) and as the route answers after the work. */
  const inWork = (req: FastifyRequest, reply: FastifyReply) => {
    const claim = req.idempotencyClaim;
    const timestamp = new Date().toISOString();
    let unclaimed: 'busy' | 'found' | undefined;
    // Methods rather than arrow functions: under tsx (`npm start`) every arrow function given a name is renamed
    // each time it is created, and this runs for every request.
    const keep: AnswerInWork<string> | undefined = claim && {
      answer(id) {
        return claim.keepRef(status, { id, traceId: req.id, timestamp });
      },
      kept() {
        claim.keptInWork = true;
      },
      unclaimed(busy) {
        unclaimed = busy ? 'busy' : 'found';
      },
    };
    return {
      keep,
      /**
       * Before the route refuses a request whose key its work was to claim (route config `claimInWork`):
       * the key is claimed now, and what the key already answers wins over the refusal (a replay: true,
       * sent; 409 or 422: thrown). False: the refusal is this key's answer.
       */
      async refusing(): Promise<boolean> {
        return claim?.deferred ? claim.deferred.claimNow() : false;
      },
      /** The result, or, when the work could not claim the request's key, what the key answers. */
      async send(result: T | null): Promise<FastifyReply> {
        if (unclaimed === 'busy') throw new DomainError('idempotency.in_progress');
        if (unclaimed === 'found') {
          if (claim?.deferred && (await claim.deferred.claimNow())) return reply;
          // The row the work met is gone since (released or purged): the key is this request's now, yet
          // its work wrote nothing. It decided nothing: 409, and the claim is released when it is sent.
          throw new DomainError('idempotency.in_progress');
        }
        if (result === null) throw new Error('idempotency: no result, and the key was not reported unclaimed');
        return reply.code(status).send(envelope(req.id, timestamp, result));
      },
    };
  };
  return {
    /** The route's `replayRef`: the first answer again, rendered from the record the kept reference names. */
    replay: async (ref: AnswerRef, req: FastifyRequest) => {
      const result = await load(ref.id, req);
      if (result === null) throw new Error(`idempotency: the record ${ref.id} a kept answer names is gone or not the requester's`);
      return envelope(ref.traceId, ref.timestamp, result);
    },
    /**
     * Runs the route's use case with the request's key: `work` is given the answer to keep (undefined
     * without a key) and returns the record it wrote, or null when its key could not be claimed by its own
     * statement (the request is then answered as the key says). A refusal the use case throws
     * is this key's answer unless the key already answers something else (a replay, 409, 422), which wins.
     */
    run: async (
      req: FastifyRequest,
      reply: FastifyReply,
      work: (keep: AnswerInWork<string> | undefined) => Promise<T | null>,
    ): Promise<FastifyReply> => {
      const answer = inWork(req, reply);
      let result: T | null;
      try {
        result = await work(answer.keep);
      } catch (e) {
        if (e instanceof DomainError && (await answer.refusing())) return reply;
        throw e;
      }
      return answer.send(result);
    },
  };
}
