import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { decodeAnswerRef, encodeAnswerRef, type AnswerRef } from '../../domain/idempotency/answer-ref.ts';
import { AnswerSealer } from '../../domain/idempotency/answer-sealer.ts';
import type { KeptAnswer } from '../../store/answers-in-work.ts';
import type { Claim, IdempotencyStore } from '../../store/idempotency-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as it arrived (app.ts's JSON parser keeps it): what an Idempotency-Key's fingerprint hashes. */
    rawBody?: string;
    /**
     * The Idempotency-Key this request claimed: its answer is kept (or the claim released) when it is
     * sent, unless the request's work kept it already (answer-by-reference.ts).
     */
    idempotencyClaim?: IdempotencyClaim;
    /** Ends this request's hold of its key in this process (IdempotencyStore.holdInFlight), once it is answered or abandoned. */
    idempotencyInFlight?: () => void;
  }
  interface FastifyContextConfig {
    /**
     * A route that keeps its answer by reference (domain/idempotency/answer-ref.ts): the body of the
     * first answer again, rendered from the record the reference names, as it was created. It is sent
     * with the kept status and serialized by the route's own schema, as the first answer was.
     */
    replayRef?: (ref: AnswerRef, req: FastifyRequest) => Promise<unknown>;
    /**
     * A route whose work claims the key itself, in its one statement or in its transaction before it writes
     * anything. The key is then not claimed before the route runs, only held in flight in this process
     * (IdempotencyStore.holdInFlight): the work claims it and keeps the answer, and the route settles a key
     * it could not claim and claims it before a refusal (answer-by-reference.ts).
     */
    claimInWork?: boolean;
  }
}

/** A claimed key, as its request carries it. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  /** The answer to keep for this payload, sealed (kept until the claim's `expires_at`). */
  keep(status: number, payload: string): KeptAnswer;
  /** The answer to keep as a reference to the record the work writes (the route has `replayRef`). */
  keepRef(status: number, ref: AnswerRef): KeptAnswer;
  /** Set once the request's work committed with its answer kept: nothing is left to keep when it is sent. */
  keptInWork?: boolean;
  /**
   * Set while the key is to be claimed by the work's own statement (route config `claimInWork`): nothing is
   * claimed yet, so nothing is kept or released when the answer is sent. `claimNow` claims it as every other
   * route does, for a request refused before its work: true when it answered the request (a replay);
   * throws the refusal that replaces the request's own (409 in flight, 422 another body).
   */
  deferred?: { claimNow(): Promise<boolean> };
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
 * the key is not used. The key is claimed in its own short transaction before the route runs (or, for a
 * route whose config says `claimInWork`, by the route's own statement): a new key runs the
 * request and keeps its answer; the same key with the same method, path and body replays that
 * answer with `Idempotent-Replayed: true`; with another body, 422; while the first is in flight, 409.
 * The kept answer is sealed under the server `secret` (it may carry a secret shown once). `requesterOf`
 * names the person within a shared key space: the same key from another person is another body (422).
 */
export function idempotency(
  app: FastifyInstance,
  store: IdempotencyStore,
  scopeOf: (req: FastifyRequest) => string | undefined,
  secret: string,
  requesterOf: (req: FastifyRequest) => string = () => '',
): void {
  const sealer = new AnswerSealer(secret);
  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method !== 'POST') return;
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    const scope = scopeOf(req);
    if (scope === undefined) return;
    if (typeof header !== 'string' || !KEY.test(header)) throw new DomainError('idempotency.key_invalid');
    // Who asks is part of the request: in a key space shared by an organization's members, another
    // member's same key and body is another request (422), so no member is handed an answer, and a
    // secret shown once in it, that another member caused.
    const requester = requesterOf(req);
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.url}\n${requester === '' ? '' : `${requester}\n`}${req.rawBody ?? ''}`)
      .digest('hex');
    const c = { scope, key: header, fingerprint };
    const inWork = req.routeOptions.config.claimInWork === true;
    // The lease this request's claim set (none while its work is to claim the key): its answer is kept on that claim only.
    // Methods rather than arrow functions, here and below: under tsx (`npm start`) every arrow function given a
    // name is renamed each time it is created, and this runs for every keyed request.
    let claimedUntil: Date | undefined;
    const claim: IdempotencyClaim = {
      scope,
      key: header,
      keep(status, payload) {
        return { ...c, status, response: sealer.seal(payload, { scope, key: header }), claimedUntil, ...store.keptTimes() };
      },
      keepRef(status, ref) {
        const claimed = claimedUntil ? { claimedUntil } : { claimInWork: true as const };
        return { ...c, status, response: encodeAnswerRef(ref), work: ref.id, ...claimed, ...store.keptTimes() };
      },
    };
    if (inWork) {
      const held = store.holdInFlight(c);
      if (typeof held === 'string') throw new DomainError(`idempotency.${held}`);
      req.idempotencyInFlight = held;
      claim.deferred = {
        async claimNow() {
          const found = await store.claim(c);
          if (found.kind === 'claimed') {
            claimedUntil = found.leaseUntil;
            claim.deferred = undefined;
            return false;
          }
          // Not this request's key: nothing of it is kept or released when the answer is sent.
          req.idempotencyClaim = undefined;
          return settle(found, c, req, reply);
        },
      };
      req.idempotencyClaim = claim;
      return;
    }
    const found = await store.claim(c);
    if (await settle(found, c, req, reply)) return reply;
    if (found.kind === 'claimed') claimedUntil = found.leaseUntil;
    req.idempotencyClaim = claim;
  });

  /** What a key that was not claimed answers: a replay (true: sent) or a refusal (thrown); false: claimed. */
  async function settle(claim: Claim, at: { scope: string; key: string }, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    switch (claim.kind) {
      case 'claimed':
        return false;
      case 'in_progress':
        throw new DomainError('idempotency.in_progress');
      case 'key_reused':
        throw new DomainError('idempotency.key_reused');
      case 'replay': {
        const kept = sealer.open(claim.response, at);
        const ref = decodeAnswerRef(kept);
        reply.code(claim.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8');
        if (!ref) {
          reply.send(kept);
          return true;
        }
        const replayRef = req.routeOptions.config.replayRef;
        if (!replayRef) throw new Error(`idempotency: ${req.url} kept an answer by reference and cannot replay one`);
        reply.send(await replayRef(ref, req));
        return true;
      }
    }
  }

  // A request's hold of its key ends once it is answered, or once its client is gone (its work may still run: the
  // row it writes is the claim, and a retry's work meets it).
  const endHold = (req: FastifyRequest, _reply: unknown, done: () => void) => {
    req.idempotencyInFlight?.();
    done();
  };
  app.addHook('onResponse', endHold);
  app.addHook('onRequestAbort', (req, done) => endHold(req, undefined, done));

  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotencyClaim;
    if (!claim) return payload;
    req.idempotencyClaim = undefined;
    // Still to be claimed by the work: the work claimed nothing (it did not run, or rolled back), or the
    // route answered the key it found (a replay, 409, 422). Nothing of this request is kept.
    if (claim.deferred) return payload;
    // The store was lost mid-request: the work may have committed with only the COMMIT's reply lost, so
    // releasing the key could let a retry do it twice. The claim stays (409 in flight to a retry, which
    // reads the state first) until its lease ends.
    if (req.storeUnavailable && !claim.keptInWork) {
      req.log.warn({ key: claim.key }, 'idempotency: the store was lost mid-request; the claim is kept until its lease ends');
      return payload;
    }
    try {
      if (!claim.keptInWork) {
        if (decidedNothing(reply.statusCode)) await store.release(claim);
        else await store.complete(claim.keep(reply.statusCode, typeof payload === 'string' ? payload : String(payload)));
      }
    } catch (err) {
      // The request's own work is done and answered; an unkept answer leaves the claim to its lease.
      req.log.error({ err }, 'idempotency: the answer could not be kept');
    }
    return payload;
  });
}
