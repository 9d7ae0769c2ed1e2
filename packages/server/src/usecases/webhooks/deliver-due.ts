import { showEventId } from '../../domain/opaque-ids.ts';
import type { Clock, Ids } from '../../domain/ports.ts';
import { attemptTimeoutMs, CLAIM_LEASE_MS, retryDelayMs } from '../../domain/webhooks/schedule.ts';
import { WebhookSecretSealer } from '../../domain/webhooks/secret.ts';
import { webhookHeaders } from '../../domain/webhooks/sign.ts';
import { recordAttempt } from './record-attempt.ts';
import type { WebhookAnswer, WebhookSender, WebhookWakeSource } from '../ports.ts';
import type { ClaimedDelivery, Repositories } from '../repositories.ts';

export interface DeliverDeps {
  store: Repositories;
  clock: Clock;
  ids: Ids;
  secret: string;
}
export interface DeliverOptions {
  sender: WebhookSender;
  /** Deliveries claimed (and sent in parallel) per run. */
  batch?: number;
  /** How long a claim holds a delivery (CAMBIO_WEBHOOK_LEASE_MS); after it a dead worker's claim is due again. */
  leaseMs?: number;
  /** The moment put in `webhook-timestamp`: the wall clock, which receivers compare with theirs. */
  wallClock?: () => Date;
  /** The jitter's randomness, in [0, 1). */
  random?: () => number;
}

/**
 * One run of the delivery worker: claims the due deliveries (others' claims skipped), makes one attempt
 * each and records it. Scheduling follows the injected clock. Returns how many attempts were made.
 */
export async function deliverDueWebhooks(deps: DeliverDeps, o: DeliverOptions): Promise<number> {
  const claimed = await deps.store.webhooks.claim(deps.clock.now(), o.leaseMs ?? CLAIM_LEASE_MS, o.batch ?? 8);
  const sealer = new OpenedSecrets(deps.secret);
  await Promise.all(claimed.map((c) => attemptOne(deps, o, sealer, c)));
  return claimed.length;
}

export interface DispatchOptions extends DeliverOptions {
  /** Attempts in flight at once in this process. */
  inFlight: number;
  /** Attempts in flight at once for one endpoint, over every worker (the claim counts their live claims). */
  perEndpoint: number;
  /** How often to look for due work while attempts are in flight but the last claim found nothing more. */
  pollMs: number;
  /** Ends the run: no new claim is made; the attempts in flight finish and are recorded. */
  signal?: AbortSignal | undefined;
  /**
   * Nudges after commits that may have made deliveries due: the run claims at once when one comes, and
   * with them it does not return when idle but waits (a nudge, or the poll for retries coming due) until stopped.
   */
  wakes?: WebhookWakeSource | undefined;
  /** The shortest time between two claims nudges bring on (NUDGE_GAP_MS). */
  nudgeGapMs?: number | undefined;
  /**
   * Claims and outcomes go on the store's worker lane: under load they would otherwise wait behind every
   * request in flight (the pool's queue, or PGlite's one connection), and the deliveries fall behind.
   */
  workerLane?: boolean | undefined;
}

/**
 * The delivery worker at volume: keeps up to `inFlight` attempts going, each claimed as a slot frees
 * (never waiting for a batch to finish, so one slow receiver delays no one else's attempt), at most
 * `perEndpoint` of them for one endpoint. Returns once nothing is due and nothing is in flight (or when
 * stopped, after the attempts in flight are recorded); the caller runs it again soon. With `wakes` it
 * stays until stopped, claiming as soon as a nudge says events were committed.
 */
export async function dispatchWebhooks(deps: DeliverDeps, o: DispatchOptions): Promise<number> {
  return o.workerLane ? deps.store.webhooks.onWorkerLane(() => dispatch(deps, o)) : dispatch(deps, o);
}

async function dispatch(deps: DeliverDeps, o: DispatchOptions): Promise<number> {
  const sealer = new OpenedSecrets(deps.secret);
  const running = new Set<Promise<void>>();
  let made = 0;
  // Attempts ended so far: one that ends while a claim runs frees a slot of its endpoint that the claim may
  // not have seen (it still counted the attempt's claim), so that claim's answer is not the last word.
  let ended = 0;
  let freed: (() => void) | null = null;
  const lowWater = o.inFlight >> 1;
  const gapMs = o.nudgeGapMs ?? NUDGE_GAP_MS;
  let claimedAt = 0;
  for (;;) {
    let foundAll = false;
    let endedDuringClaim = false;
    let nudgesBefore = o.wakes?.count;
    if (!o.signal?.aborted && running.size < o.inFlight) {
      const want = o.inFlight - running.size;
      const endedBefore = ended;
      nudgesBefore = o.wakes?.count;
      claimedAt = Date.now();
      const claimed = await deps.store.webhooks.claim(deps.clock.now(), o.leaseMs ?? CLAIM_LEASE_MS, want, o.perEndpoint);
      endedDuringClaim = ended !== endedBefore;
      made += claimed.length;
      foundAll = claimed.length === want;
      for (const c of claimed) {
        // An outcome the store would not take is left to the claim's lease: the delivery is due again after it.
        const p: Promise<void> = attemptOne(deps, o, sealer, c)
          .catch(() => undefined)
          .finally(() => {
            running.delete(p);
            ended++;
            freed?.();
          });
        running.add(p);
      }
      if (claimed.length === 0 && running.size === 0) {
        // Nothing found and nothing left in flight, but an attempt that ended during the claim may have
        // freed its endpoint's slot after the claim counted it: only without one is the run done.
        if (endedDuringClaim) continue;
        if (!o.wakes) return made;
      }
    }
    if (o.signal?.aborted && running.size === 0) return made;
    // A full claim with room left: claim again at once. Otherwise wait until half the slots are free (one
    // claim then fills many, rather than a claim for every attempt that ends), a nudge comes (one during
    // the claim counts: its events may have committed after the claim's snapshot), or the poll comes
    // round. Nudges are taken at most every `gapMs`: under a stream of commits a claim gathers what they wrote.
    if (foundAll && running.size < o.inFlight) continue;
    await new Promise<void>((resolve) => {
      let t = setTimeout(done, o.pollMs);
      const nudged = () => {
        if (running.size >= o.inFlight) return;
        clearTimeout(t);
        t = setTimeout(done, Math.max(0, claimedAt + gapMs - Date.now()));
      };
      const unsubscribe = o.wakes?.subscribe(nudged);
      if (o.wakes && o.wakes.count !== nudgesBefore) nudged();
      const stop = () => done();
      o.signal?.addEventListener('abort', stop, { once: true });
      function done() {
        clearTimeout(t);
        unsubscribe?.();
        o.signal?.removeEventListener('abort', stop);
        freed = null;
        resolve();
      }
      freed = () => {
        if (o.signal?.aborted && running.size === 0) return done();
        // Slots freed: claim again, but not sooner than `gapMs` after the last claim, as for nudges (at low
        // volume every attempt that ends frees enough, and a claim for each would cost more than its attempt).
        if (running.size <= lowWater) {
          clearTimeout(t);
          t = setTimeout(done, Math.max(0, claimedAt + gapMs - Date.now()));
        }
      };
    });
  }
}

/** The shortest time between two claims a nudge brings on. */
const NUDGE_GAP_MS = 20;

/** The event as it is POSTed: the same JSON as GET /api/v1/events shows it. */
export const webhookBody = (c: ClaimedDelivery, id: string): string =>
  JSON.stringify({ id, type: c.event.type, createdAt: c.event.createdAt.toISOString(), data: c.event.data });

/**
 * The endpoints' secrets, opened once per sealed value (a rotation seals a new one) rather than at every
 * attempt, and each event's id as shown: both are the same for every attempt of a run, so at volume
 * opening and encoding them again would be paid per delivery. Bounded: cleared when it grows past a size.
 */
class OpenedSecrets {
  readonly #sealer: WebhookSecretSealer;
  readonly #opened = new Map<string, string>();
  readonly #ids = new Map<string, string>();
  constructor(private readonly secret: string) {
    this.#sealer = new WebhookSecretSealer(secret);
  }

  open(sealed: string, row: { organizationId: string; endpointId: string }): string {
    const key = `${row.organizationId}|${row.endpointId}|${sealed}`;
    let plain = this.#opened.get(key);
    if (plain === undefined) {
      plain = this.#sealer.open(sealed, row);
      if (this.#opened.size >= MAX_KEPT) this.#opened.clear();
      this.#opened.set(key, plain);
    }
    return plain;
  }

  eventId(internal: string): string {
    let id = this.#ids.get(internal);
    if (id === undefined) {
      id = showEventId(this.secret, internal);
      if (this.#ids.size >= MAX_KEPT) this.#ids.clear();
      this.#ids.set(internal, id);
    }
    return id;
  }
}
const MAX_KEPT = 4096;

async function attemptOne(deps: DeliverDeps, o: DeliverOptions, sealer: OpenedSecrets, c: ClaimedDelivery): Promise<void> {
  const row = { organizationId: c.organizationId, endpointId: c.endpointId };
  const startedAt = deps.clock.now();
  const t0 = performance.now();
  let answer: WebhookAnswer;
  try {
    const secrets = [sealer.open(c.secretSealed, row)];
    if (c.previousSecretSealed !== null && c.previousSecretUntil !== null && c.previousSecretUntil > startedAt)
      secrets.push(sealer.open(c.previousSecretSealed, row));
    // The event's id as GET /events shows it: the same on every retry and after a restart (the secret's).
    const id = sealer.eventId(c.event.id);
    const body = webhookBody(c, id);
    const headers = webhookHeaders(secrets, id, (o.wallClock ?? (() => new Date()))(), body);
    answer = await o.sender.post({
      url: c.url,
      headers,
      body,
      timeoutMs: attemptTimeoutMs(o.leaseMs ?? CLAIM_LEASE_MS),
      endpointId: c.endpointId,
    });
  } catch (e) {
    // Nothing was sent (e.g. a secret sealed under another CAMBIO_SECRET): a failed attempt like any other, logged.
    answer = { error: `not sent: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) };
  }
  const durationMs = Math.trunc(performance.now() - t0);
  const delivered = answer.statusCode !== undefined && answer.statusCode >= 200 && answer.statusCode < 300;
  const delay = delivered ? null : retryDelayMs(c.roundAttempt, (o.random ?? Math.random)());
  const retryAt = delay === null ? null : new Date(deps.clock.now().getTime() + delay);
  const outcome = {
    startedAt,
    durationMs,
    statusCode: answer.statusCode ?? null,
    error: answer.error ?? (delivered ? null : `answered ${answer.statusCode}`),
  };
  // The attempt was made: a store that fails for a moment must not lose its outcome (the delivery would
  // stay claimed until its lease lapses, then be sent again), so recording it is tried a few times.
  for (let tries = 1; ; tries++) {
    try {
      await recordAttempt(deps, c, outcome, delivered, retryAt);
      return;
    } catch (err) {
      if (tries >= RECORD_TRIES) throw err;
      await new Promise((r) => setTimeout(r, 200 * tries));
    }
  }
}

/** How many times an attempt's outcome is offered to the store before it is left to the claim's lease. */
const RECORD_TRIES = 4;
