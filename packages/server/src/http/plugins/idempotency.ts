import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { AnswerSealer } from '../../domain/idempotency/answer-sealer.ts';
import type { KeptAnswer } from '../../store/answers-in-work.ts';
import type { IdempotencyStore } from '../../store/idempotency-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as it arrived (app.ts's JSON parser keeps it): what an Idempotency-Key's fingerprint hashes. */
    rawBody?: string;
    /**
     * The Idempotency-Key this request claimed: its answer is kept (or the claim released) when it is
     * sent, unless the request's work kept it already (answer-in-work.ts).
     */
    idempotencyClaim?: IdempotencyClaim;
  }
}

/** A request's Idempotency-Key, as the request carries it. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  fingerprint: string;
  /** The key is this request's (claimed before the route ran); false until then on a route that claims it in its work. */
  claimed: boolean;
  /** The answer to keep for this payload, sealed, kept from now for the retention period. */
  keep(status: number, payload: string): KeptAnswer;
  /** Set once the request's work committed with its answer kept: nothing is left to keep when it is sent. */
  keptInWork?: boolean;
  /**
   * Claims the key now, on a route that claims it in its work, when the work found it held or the route
   * refuses before its work: false when an earlier request's answer was replayed instead; a key in
   * flight (409) or used with another body (422) throws; true: the key is this request's.
   */
  claimNow(): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's work claims the key itself, in the statement that does the work, with the answer (a
     * work whose answer is known before it runs): no claim of its own before it (answer-in-work.ts).
     */
    claimsKeyInWork?: boolean;
  }
}

/** 1–255 printable ASCII characters (CONTRACT §10). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * Answers that decided nothing, so the same key may run again: a request that timed out or was
 * throttled, a conflict that may clear (409: not reconciled, in flight…), any failure of ours (5xx).
 */
export const decidedNothing = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * `Idempotency-Key` on every POST of the API it is registered in (CONTRACT §10). `scopeOf` says whose key
 * space a request uses (an organization, a staff person); undefined: the request has no principal and
 * the key is not used. The key is claimed in its own short transaction before the route runs (or, on a
 * route that `claimsKeyInWork`, by the statement of its work): a new key runs the request and keeps its
 * answer; the same key with the same method, path and body replays that answer with
 * `Idempotent-Replayed: true`; with another body, 422; while the first is in flight, 409.
 * The kept answer is sealed under the server `secret` (it may carry a secret shown once).
 */
export function idempotency(app: FastifyInstance, store: IdempotencyStore, scopeOf: (req: FastifyRequest) => string | undefined, secret: string): void {
  const sealer = new AnswerSealer(secret);

  /** Claims the key for this request; false when its earlier answer was replayed instead. Refusals throw. */
  async function claimKey(req: FastifyRequest, reply: FastifyReply, c: IdempotencyClaim): Promise<boolean> {
    const claim = await store.claim(c);
    switch (claim.kind) {
      case 'claimed':
        c.claimed = true;
        req.idempotencyClaim = c;
        return true;
      case 'in_progress': throw new DomainError('idempotency.in_progress');
      case 'key_reused': throw new DomainError('idempotency.key_reused');
      case 'replay':
        req.idempotencyClaim = undefined;
        reply.code(claim.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(sealer.open(claim.response, c));
        return false;
    }
  }

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method !== 'POST') return;
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    const scope = scopeOf(req);
    if (scope === undefined) return;
    if (typeof header !== 'string' || !KEY.test(header)) throw new DomainError('idempotency.key_invalid');
    const key = header;
    const fingerprint = createHash('sha256').update(`${req.method} ${req.url}\n${req.rawBody ?? ''}`).digest('hex');
    const c: IdempotencyClaim = {
      scope, key, fingerprint, claimed: false,
      keep: (status, payload) => ({ scope, key, fingerprint, claimed: c.claimed, status, response: sealer.seal(payload, { scope, key }), ...store.keeping() }),
      claimNow: () => claimKey(req, reply, c),
    };
    if (req.routeOptions.config.claimsKeyInWork) req.idempotencyClaim = c;
    else if (!(await claimKey(req, reply, c))) return reply;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotencyClaim;
    if (!claim || claim.keptInWork) return payload;
    req.idempotencyClaim = undefined;
    try {
      if (decidedNothing(reply.statusCode)) {
        if (claim.claimed) await store.release(claim);
      } else await store.complete(claim.keep(reply.statusCode, typeof payload === 'string' ? payload : String(payload)));
    } catch (err) {
      // The request's own work is done and answered; an unkept answer leaves the claim to its lease.
      req.log.error({ err }, 'idempotency: the answer could not be kept');
    }
    return payload;
  });
}
