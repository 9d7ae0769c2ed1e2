import { createHash } from 'node:crypto';
import { errorCatalogue } from '@cambio/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { decodeAnswerRef, type AnswerRef } from '../../domain/idempotency/answer-ref.ts';
import { AnswerSealer } from '../../domain/idempotency/answer-sealer.ts';
import { keyedRequests, KeyTaken, type IdempotencyStore, type KeyedRequest, type KeyRow } from '../../store/idempotency-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as it arrived (app.ts's JSON parser keeps it): what an Idempotency-Key's fingerprint hashes. */
    rawBody?: string;
    /** The request's Idempotency-Key, as its unit of work claims it. */
    idempotencyKey?: KeyedRequest;
  }
  interface FastifyContextConfig {
    /** A route answered by reference (answer-by-reference.ts): its status, and its first answer rendered again. */
    answerByRef?: { status: number; replay: (ref: AnswerRef, req: FastifyRequest) => Promise<unknown> };
  }
}

/** 1–255 printable ASCII characters (docs/api-guide.md). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** Answers that decided nothing, so the same key may run again: 408, 409, 429, any 5xx. */
export const decidedNothing = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * `Idempotency-Key` on every POST of the API it is registered in (docs/design/server-layers.md). `scopeOf`
 * says whose key space a request uses (undefined: no principal, the key is not used); `requesterOf` names the
 * person within a shared key space, part of the fingerprint with the method, path and body. The request's
 * first transaction claims the key (store/unit-of-work.ts); a key that has a row answers as the row says: a
 * replay with `Idempotent-Replayed: true`, 422 for another request, 409 while it is in flight. Answers not
 * kept by the transaction are kept, sealed under `secret`, when they are sent.
 */
export function idempotency(
  app: FastifyInstance,
  store: IdempotencyStore,
  scopeOf: (req: FastifyRequest) => string | undefined,
  secret: string,
  requesterOf: (req: FastifyRequest) => string = () => '',
): void {
  const sealer = new AnswerSealer(secret);
  app.addHook('preHandler', (req, _reply, done) => {
    const header = req.headers['idempotency-key'];
    const scope = req.method === 'POST' && header !== undefined ? scopeOf(req) : undefined;
    if (scope === undefined) return done();
    if (typeof header !== 'string' || !KEY.test(header)) return done(new DomainError('idempotency.key_invalid'));
    const requester = requesterOf(req);
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.url}\n${requester === '' ? '' : `${requester}\n`}${req.rawBody ?? ''}`)
      .digest('hex');
    const byRef = req.routeOptions.config.answerByRef?.status;
    const k: KeyedRequest = { scope, key: header, fingerprint, state: 'open', traceId: req.id, at: new Date().toISOString(), byRef };
    req.idempotencyKey = k;
    // The rest of the request runs with its key in reach of its unit of work.
    keyedRequests.run(k, done);
  });

  /** Answers as the key's row says: another request's key (422), one in flight (409), or a replay. */
  async function answerAs(row: KeyRow, k: KeyedRequest, req: FastifyRequest, reply: FastifyReply) {
    k.state = 'answered';
    if (row.fingerprint !== k.fingerprint) throw new DomainError('idempotency.key_reused');
    if (row.state !== 'done') throw new DomainError('idempotency.in_progress');
    const kept = sealer.open(row.response!, k);
    reply.code(row.status!).header('idempotent-replayed', 'true').type('application/json; charset=utf-8');
    const ref = decodeAnswerRef(kept);
    const replay = req.routeOptions.config.answerByRef?.replay;
    if (!ref) return reply.send(kept);
    if (!replay) throw new Error(`idempotency: ${req.url} kept an answer by reference and cannot replay one`);
    return reply.send(await replay(ref, req));
  }

  // A key taken answers as its row says; so does a refusal of a request whose work claimed nothing, when its key
  // has a row (a replay, 409 or 422 comes first). Anything else goes on to the parent's error handler.
  app.setErrorHandler(async (err, req, reply) => {
    const k = req.idempotencyKey;
    if (k && err instanceof KeyTaken) return answerAs(err.row, k, req, reply);
    if (k?.state === 'open' && err instanceof DomainError && !decidedNothing(errorCatalogue[err.code].status)) {
      const row = await store.find(k);
      if (row) return answerAs(row, k, req, reply);
    }
    throw err;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const k = req.idempotencyKey;
    if (!k) return payload;
    const was = k.state;
    k.state = 'answered';
    // Kept on the request's committed claim, unless its transaction kept it; or as a new row when its work claimed
    // nothing and the answer decided something. Not after a commit whose outcome is unknown, nor after a replay.
    const claimed = was === 'committed' && !k.keptInWork;
    if (!claimed && !(was === 'open' && !decidedNothing(reply.statusCode))) return payload;
    try {
      await store.complete(k, reply.statusCode, sealer.seal(String(payload), k), claimed);
    } catch (err) {
      // The request's own work is done and answered: the key stays in flight (409) until it expires.
      req.log.error({ err }, 'idempotency: the answer could not be kept');
    }
    return payload;
  });
}
