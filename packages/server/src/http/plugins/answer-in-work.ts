import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerInWork } from '../../store/answers-in-work.ts';

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
