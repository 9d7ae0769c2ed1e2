import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../domain/ports.ts';
import { endpointView, type WebhookEndpoint } from '../domain/webhooks/endpoint.ts';
import { Batcher } from './batcher.ts';
import type { Db, OpenedDb } from './db.ts';
import { toJson } from './json.ts';
import { WebhookWakes } from './webhook-wakes.ts';
import { mapPage, readPage, type Page, type PageParams } from './paging.ts';
import type { Tx } from './unit-of-work.ts';
import type { EndpointSigning } from '../usecases/repositories.ts';

type EndpointRow = {
  id: string;
  organization_id: string;
  url: string;
  types: string[] | null;
  status: string;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  previous_secret_until: Date | null;
  created_at: Date;
  updated_at: Date;
};
const ENDPOINT_COLUMNS = [
  'id',
  'organization_id',
  'url',
  'types',
  'status',
  'failing_since',
  'disabled_at',
  'disabled_reason',
  'previous_secret_until',
  'created_at',
  'updated_at',
] as const;
const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  organizationId: r.organization_id,
  url: r.url,
  types: r.types,
  status: r.status as WebhookEndpoint['status'],
  failingSince: r.failing_since,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  previousSecretUntil: r.previous_secret_until,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** One event for one endpoint, with its attempts. */
export interface WebhookDelivery {
  eventId: string;
  eventType: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  log: Array<{ attempt: number; startedAt: Date; durationMs: number; statusCode: number | null; error: string | null }>;
}

/** A delivery a worker holds: one attempt to make, until `claimedUntil`. */
export interface ClaimedDelivery {
  deliveryId: string;
  claimToken: string;
  attempt: number;
  roundAttempt: number;
  endpointId: string;
  organizationId: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
  event: { id: string; type: string; createdAt: Date; data: Record<string, unknown> };
}

/** What one attempt came to. */
/** WebhooksStore.health: counts, the next retry, the last success and the last failure. */
export interface EndpointHealth {
  attempts: number;
  succeeded: number;
  successRatePct: number | null;
  pending: number;
  retrying: number;
  nextRetryAt: Date | null;
  lastSuccessAt: Date | null;
  lastFailure: { at: Date; statusCode: number | null; error: string | null } | null;
}
/** What recording a failed attempt came to: null when the claim had lapsed; else its endpoint's status and failure streak (undefined: gone). */
export type FailedRecord = { status: string; failingSince: Date } | undefined | null;
export interface AttemptOutcome {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

const eventIdOf = (seq: string | number) => `evt_${seq}`;
const seqOf = (eventId: string) => (/^evt_[0-9]{1,18}$/.test(eventId) ? eventId.slice(4) : null);

/**
 * Webhook endpoints, their deliveries (written by a trigger on events, migrations/012) and the log of
 * attempts. Workers claim with FOR UPDATE SKIP LOCKED and a lease; an attempt is finished only by the
 * claim that made it (its token), so a worker whose lease ran out cannot overwrite the next one's outcome.
 */
export class WebhooksStore {
  /**
   * Successful attempts that end together are recorded in one statement: at volume, one transaction of
   * three statements per delivery would cost more than the attempt itself.
   */
  readonly #delivered: Batcher<{ c: ClaimedDelivery; o: AttemptOutcome }, boolean>;
  /** Failed attempts that end together, likewise: a receiver that fails every event fails at the event rate. */
  readonly #failed: Batcher<{ c: ClaimedDelivery; o: AttemptOutcome; retryAt: Date | null }, FailedRecord>;
  /** Nudged after a commit that may have made deliveries due; the delivery worker waits on it. */
  readonly wakes = new WebhookWakes();
  /** The delivery worker's lane while it runs (onWorkerLane); null: the requests' handle. */
  #worker: Db | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly lane: OpenedDb['onWorkerLane'] = (f) => f(db),
  ) {
    this.#delivered = new Batcher((items) => this.#recordDelivered(items), { maxBatch: 128, maxInFlight: 2 });
    this.#failed = new Batcher((items) => this.#recordFailed(items), { maxBatch: 128, maxInFlight: 1 });
  }

  /**
   * Runs `f` (the delivery worker's run) with its claims and recorded outcomes on the store's worker lane
   * (OpenedDb.onWorkerLane: a held connection on PostgreSQL, first turn at the one connection on PGlite),
   * so they never wait behind the requests in flight and the deliveries keep up under load.
   */
  async onWorkerLane<T>(f: () => Promise<T>): Promise<T> {
    return this.lane(async (db) => {
      this.#worker = db;
      try {
        return await f();
      } finally {
        this.#worker = null;
      }
    });
  }

  /** The worker's lane while its run lasts, else the requests' handle. */
  get #work(): Db {
    return this.#worker ?? this.db;
  }

  /**
   * How many endpoints the organization has, its row locked until `tx` ends: two creations for one
   * organization take turns, so both cannot pass a limit that only one fits under.
   */
  async countLocked(tx: Tx, organizationId: string): Promise<number> {
    await tx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().executeTakeFirstOrThrow();
    const n = await tx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(n.n);
  }

  async insert(
    tx: Tx,
    e: { id: string; organizationId: string; url: string; types: string[] | null; secretSealed: string },
    at: Date,
  ): Promise<WebhookEndpoint> {
    const created = await tx
      .insertInto('webhook_endpoints')
      .values({
        id: e.id,
        organization_id: e.organizationId,
        url: e.url,
        types: e.types === null ? null : toJson(e.types),
        secret_sealed: e.secretSealed,
        previous_secret_sealed: null,
        previous_secret_until: null,
        status: 'enabled',
        failing_since: null,
        disabled_at: null,
        disabled_reason: null,
        created_at: at,
        updated_at: at,
      })
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirstOrThrow();
    return toEndpoint(created);
  }

  /** Every endpoint of the organization, newest first. */
  async list(organizationId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .select(ENDPOINT_COLUMNS)
      .where('organization_id', '=', organizationId)
      .orderBy('seq', 'desc')
      .execute();
    return rows.map(toEndpoint);
  }

  async get(organizationId: string, id: string): Promise<WebhookEndpoint | undefined> {
    const r = await this.db
      .selectFrom('webhook_endpoints')
      .select(ENDPOINT_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return r && toEndpoint(r);
  }

  /** What signing an attempt to one of the organization's endpoints needs: its url and sealed secrets; undefined when it has no such endpoint. */
  async signingOf(organizationId: string, id: string): Promise<EndpointSigning | undefined> {
    const r = await this.db
      .selectFrom('webhook_endpoints')
      .select(['url', 'secret_sealed', 'previous_secret_sealed', 'previous_secret_until'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      r && {
        url: r.url,
        secretSealed: r.secret_sealed,
        previousSecretSealed: r.previous_secret_sealed,
        previousSecretUntil: r.previous_secret_until,
      }
    );
  }

  /** Deletes the endpoint with its deliveries and their log; undefined when the organization has no such endpoint. */
  async delete(tx: Tx, organizationId: string, id: string): Promise<WebhookEndpoint | undefined> {
    // Deliveries first, then the endpoint: the order in which recording an attempt takes them (its delivery,
    // then its endpoint's failure streak), so a deletion during deliveries waits instead of deadlocking.
    await tx
      .deleteFrom('webhook_deliveries')
      .where('endpoint_id', '=', id)
      .where('endpoint_id', 'in', (eb) => eb.selectFrom('webhook_endpoints').select('id').where('organization_id', '=', organizationId))
      .execute();
    const r = await tx
      .deleteFrom('webhook_endpoints')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirst();
    return r && toEndpoint(r);
  }

  /** The new secret signs from now on; the current one becomes the previous and signs too until `previousUntil`. */
  async rotate(
    tx: Tx,
    organizationId: string,
    id: string,
    newSealed: string,
    previousUntil: Date,
    at: Date,
  ): Promise<WebhookEndpoint | undefined> {
    const r = await tx
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        previous_secret_sealed: eb.ref('secret_sealed'),
        secret_sealed: newSealed,
        previous_secret_until: previousUntil,
        updated_at: at,
      }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirst();
    return r && toEndpoint(r);
  }

  /** The endpoint's status, its row locked until `tx` ends; undefined when the organization has no such endpoint. */
  async lockStatus(
    tx: Tx,
    organizationId: string,
    id: string,
  ): Promise<{ status: WebhookEndpoint['status']; disabledReason: string | null } | undefined> {
    const r = await tx
      .selectFrom('webhook_endpoints')
      .select(['status', 'disabled_reason'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return r && { status: r.status as WebhookEndpoint['status'], disabledReason: r.disabled_reason };
  }

  /** Enabled, its failure streak forgotten; its deliveries still pending are due at `at`, each a new round. */
  async enable(tx: Tx, organizationId: string, id: string, at: Date): Promise<WebhookEndpoint | undefined> {
    const r = await tx
      .updateTable('webhook_endpoints')
      .set({ status: 'enabled', failing_since: null, disabled_at: null, disabled_reason: null, updated_at: at })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirst();
    if (!r) return undefined;
    await tx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: at, round_attempts: 0, updated_at: at })
      .where('endpoint_id', '=', id)
      .where('state', '=', 'pending')
      .execute();
    return toEndpoint(r);
  }

  /**
   * How an endpoint is doing (the caller checked it is the organization's): attempts since `since` and
   * how many were answered 2xx, the deliveries still pending and retrying, the next retry, the last success
   * and the last failure. The rate is computed here, in integers.
   */
  async health(endpointId: string, since: Date): Promise<EndpointHealth> {
    const r = await sql<{
      attempts: string;
      succeeded: string;
      rate: number | null;
      pending: string;
      retrying: string;
      next_retry_at: Date | null;
      last_success_at: Date | null;
      failure: { at: string; status_code: number | null; error: string | null } | null;
    }>`with recent as (
        select a.started_at, a.status_code, a.error from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
        where d.endpoint_id = ${endpointId} and a.started_at >= ${since}
      ), counts as (
        select count(*) as attempts, count(*) filter (where status_code between 200 and 299) as succeeded from recent
      ), waiting as (
        select count(*) as pending, count(*) filter (where attempts > 0) as retrying,
          min(next_attempt_at) filter (where attempts > 0) as next_retry_at
        from webhook_deliveries where endpoint_id = ${endpointId} and state = 'pending'
      )
      select c.attempts::text, c.succeeded::text,
        case when c.attempts = 0 then null else (c.succeeded * 100 / c.attempts)::int end as rate,
        w.pending::text, w.retrying::text, w.next_retry_at,
        (select max(a.started_at) from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
          where d.endpoint_id = ${endpointId} and a.status_code between 200 and 299) as last_success_at,
        (select json_build_object('at', a.started_at, 'status_code', a.status_code, 'error', a.error)
          from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
          where d.endpoint_id = ${endpointId} and (a.status_code is null or a.status_code not between 200 and 299)
          order by a.started_at desc limit 1) as failure
      from counts c, waiting w`.execute(this.db);
    const x = r.rows[0]!;
    return {
      attempts: Number(x.attempts),
      succeeded: Number(x.succeeded),
      successRatePct: x.rate,
      pending: Number(x.pending),
      retrying: Number(x.retrying),
      nextRetryAt: x.next_retry_at === null ? null : new Date(x.next_retry_at),
      lastSuccessAt: x.last_success_at === null ? null : new Date(x.last_success_at),
      lastFailure: x.failure === null ? null : { at: new Date(x.failure.at), statusCode: x.failure.status_code, error: x.failure.error },
    };
  }

  /** The endpoint's deliveries, newest first, each with its attempts. */
  async deliveries(organizationId: string, endpointId: string, p: PageParams): Promise<Page<WebhookDelivery>> {
    const q = this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as ev', 'ev.seq', 'd.event_seq')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .where('d.endpoint_id', '=', endpointId)
      .where('e.organization_id', '=', organizationId);
    const page = await readPage(q, 'd.id', p, (x) =>
      x.select([
        'd.id',
        'd.event_seq',
        'ev.type',
        'd.state',
        'd.attempts',
        'd.next_attempt_at',
        'd.last_status',
        'd.last_error',
        'd.last_attempt_at',
        'd.delivered_at',
        'd.created_at',
      ]),
    );
    const ids = page.items.map((r) => r.id);
    const log =
      ids.length === 0
        ? []
        : await this.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', ids).orderBy('attempt').execute();
    return mapPage(page, (r) => ({
      eventId: eventIdOf(r.event_seq),
      eventType: r.type,
      state: r.state as WebhookDelivery['state'],
      attempts: r.attempts,
      nextAttemptAt: r.state === 'pending' ? r.next_attempt_at : null,
      lastStatusCode: r.last_status,
      lastError: r.last_error,
      lastAttemptAt: r.last_attempt_at,
      deliveredAt: r.delivered_at,
      createdAt: r.created_at,
      log: log
        .filter((a) => String(a.delivery_id) === String(r.id))
        .map((a) => ({
          attempt: a.attempt,
          startedAt: a.started_at,
          durationMs: a.duration_ms,
          statusCode: a.status_code,
          error: a.error,
        })),
    }));
  }

  /** Whether the organization has this endpoint. */
  async exists(tx: Tx, organizationId: string, endpointId: string): Promise<boolean> {
    return (
      (await tx
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('id', '=', endpointId)
        .executeTakeFirst()) !== undefined
    );
  }

  /** The organization's event with this id, as its sequence number; null when it has none such. */
  async eventSeq(tx: Tx, organizationId: string, eventId: string): Promise<string | null> {
    const seq = seqOf(eventId);
    if (seq === null) return null;
    const ev = await tx
      .selectFrom('events')
      .select('seq')
      .where('seq', '=', seq)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return ev ? String(ev.seq) : null;
  }

  /**
   * The event is due to the endpoint at `at`, as a new round of attempts (the same webhook-id): the
   * delivery is created when the endpoint never had one (an event from before it was registered, or of
   * a type it does not take).
   */
  async resend(tx: Tx, endpointId: string, eventSeq: string, at: Date): Promise<void> {
    await tx
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id: endpointId,
        event_seq: eventSeq,
        state: 'pending',
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['endpoint_id', 'event_seq']).doUpdateSet({ state: 'pending', next_attempt_at: at, round_attempts: 0, updated_at: at }),
      )
      .execute();
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints for one attempt each, until `now + leaseMs`,
   * oldest due first, but never more than `perEndpoint` in flight for one endpoint (counting every
   * worker's live claims), so a receiver that is slow or down ties up only its own deliveries. Rows
   * another worker holds are skipped (FOR UPDATE SKIP LOCKED), and a claim's lease keeps a delivery from
   * being claimed again while its attempt runs; after the lease (a worker that died) it is due again.
   */
  async claim(now: Date, leaseMs: number, limit: number, perEndpoint = limit): Promise<ClaimedDelivery[]> {
    const token = randomUUID();
    const until = new Date(now.getTime() + leaseMs);
    const rows = await sql<{
      id: string;
      attempts: number;
      round_attempts: number;
      endpoint_id: string;
      organization_id: string;
      url: string;
      secret_sealed: string;
      previous_secret_sealed: string | null;
      previous_secret_until: Date | null;
      seq: string;
      type: string;
      created_at: Date;
      data: Record<string, unknown>;
    }>`with due as (
        select d.id from webhook_endpoints e
        cross join lateral (
          select w.id, w.next_attempt_at from webhook_deliveries w
          where w.endpoint_id = e.id and w.state = 'pending' and w.next_attempt_at <= ${now}
            and (w.claimed_until is null or w.claimed_until <= ${now})
          order by w.next_attempt_at, w.id
          limit greatest(0, ${perEndpoint}::int - (select count(*) from webhook_deliveries f
            where f.endpoint_id = e.id and f.claimed_until is not null and f.claimed_until > ${now})::int)
          for update of w skip locked
        ) d
        where e.status = 'enabled'
        order by d.next_attempt_at, d.id limit ${limit}
      ), claimed as (
        update webhook_deliveries d set claim_token = ${token}, claimed_until = ${until},
          attempts = d.attempts + 1, round_attempts = d.round_attempts + 1, updated_at = ${now}
        from due where d.id = due.id
        returning d.id, d.attempts, d.round_attempts, d.endpoint_id, d.event_seq
      )
      select c.id, c.attempts, c.round_attempts, c.endpoint_id, e.organization_id, e.url, e.secret_sealed,
        e.previous_secret_sealed, e.previous_secret_until, ev.seq, ev.type, ev.created_at, ev.data
      from claimed c join webhook_endpoints e on e.id = c.endpoint_id join events ev on ev.seq = c.event_seq
      order by c.id`.execute(this.#work);
    return rows.rows.map((r) => ({
      deliveryId: String(r.id),
      claimToken: token,
      attempt: r.attempts,
      roundAttempt: r.round_attempts,
      endpointId: r.endpoint_id,
      organizationId: r.organization_id,
      url: r.url,
      secretSealed: r.secret_sealed,
      previousSecretSealed: r.previous_secret_sealed,
      previousSecretUntil: r.previous_secret_until === null ? null : new Date(r.previous_secret_until),
      event: { id: eventIdOf(r.seq), type: r.type, createdAt: new Date(r.created_at), data: r.data },
    }));
  }

  /**
   * Records a successful attempt (batched with others that end together). False when the claim is no
   * longer this worker's (its lease ran out and another claimed it): nothing is written.
   */
  recordDelivered(c: ClaimedDelivery, o: AttemptOutcome): Promise<boolean> {
    return this.#delivered.load({ c, o });
  }

  /**
   * Records a failed attempt (batched with others that end together): its log line, the delivery (pending
   * again at `retryAt`, or failed when `retryAt` is null) and the endpoint's failure streak (started at this
   * attempt when none runs). Null when the claim is no longer this worker's: nothing is written. Else the
   * endpoint's status and since when it fails (undefined when the endpoint is gone).
   */
  recordFailed(c: ClaimedDelivery, o: AttemptOutcome, retryAt: Date | null): Promise<FailedRecord> {
    return this.#failed.load({ c, o, retryAt });
  }

  /**
   * Disables the endpoint if it is still enabled and still failing since `failingSince` (no success has
   * ended that streak meanwhile), and writes its `webhook.disabled` event; undefined when it was not.
   */
  async disable(tx: Tx, endpointId: string, failingSince: Date, reason: string, at: Date): Promise<WebhookEndpoint | undefined> {
    const off = await tx
      .updateTable('webhook_endpoints')
      .set({ status: 'disabled', disabled_at: at, disabled_reason: reason, updated_at: at })
      .where('id', '=', endpointId)
      .where('status', '=', 'enabled')
      .where('failing_since', '=', failingSince)
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirst();
    if (!off) return undefined;
    const endpoint = toEndpoint(off);
    await tx
      .insertInto('events')
      .values({
        organization_id: off.organization_id,
        type: 'webhook.disabled',
        subject_id: off.id,
        data: toJson(endpointView(endpoint)),
        created_at: at,
      })
      .execute();
    return endpoint;
  }

  /**
   * recordDelivered() for many successful attempts at once, in one statement (so one transaction): each delivery
   * still this claim's becomes delivered, its attempt is logged, and its endpoint's failure streak ends.
   * Answers, per attempt, whether it was recorded (false: the claim had lapsed and another took it).
   */
  async #recordDelivered(items: Array<{ c: ClaimedDelivery; o: AttemptOutcome }>): Promise<boolean[]> {
    const at = this.clock.now();
    const rows = JSON.stringify(items.map(({ c, o }) => attemptRow(c, o)));
    const r = await sql<{ id: string }>`with v as (
        select * from json_to_recordset(${rows}::json) as x(id bigint, token text, attempt int, started timestamptz, duration int, status int)
      ), done as (
        update webhook_deliveries d set state = 'delivered', next_attempt_at = ${at}, claim_token = null, claimed_until = null,
          last_status = v.status, last_error = null, last_attempt_at = v.started, delivered_at = ${at}, updated_at = ${at}
        from v where d.id = v.id and d.claim_token = v.token
        returning d.id, d.endpoint_id
      ), logged as (
        insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)
        select v.id, v.attempt, v.started, v.duration, v.status, null from v join done on done.id = v.id
        on conflict (delivery_id, attempt) do nothing
      ), healed as (
        update webhook_endpoints e set failing_since = null
        where e.id in (select endpoint_id from done) and e.failing_since is not null
      )
      select id::text as id from done`.execute(this.#work);
    const recorded = new Set(r.rows.map((x) => String(x.id)));
    return items.map(({ c }) => recorded.has(String(c.deliveryId)));
  }

  /**
   * recordFailed() for many failed attempts at once, in one statement: each delivery still this claim's is
   * pending again at its retry time (or failed), its attempt is logged, and its endpoint's failure streak
   * starts at the earliest of these attempts when none runs. Deliveries are taken before endpoints, the
   * order in which deleting an endpoint takes them.
   */
  async #recordFailed(items: Array<{ c: ClaimedDelivery; o: AttemptOutcome; retryAt: Date | null }>): Promise<FailedRecord[]> {
    const at = this.clock.now();
    const rows = JSON.stringify(
      items.map(({ c, o, retryAt }) => ({ ...attemptRow(c, o), error: o.error, retry: retryAt === null ? null : retryAt.toISOString() })),
    );
    const r = await sql<{ id: string; status: string | null; failing_since: Date | null }>`with v as (
        select * from json_to_recordset(${rows}::json)
          as x(id bigint, token text, attempt int, started timestamptz, duration int, status int, error text, retry timestamptz)
      ), done as (
        update webhook_deliveries d set state = case when v.retry is null then 'failed' else 'pending' end,
          next_attempt_at = coalesce(v.retry, ${at}), claim_token = null, claimed_until = null, last_status = v.status,
          last_error = v.error, last_attempt_at = v.started, delivered_at = null, updated_at = ${at}
        from v where d.id = v.id and d.claim_token = v.token
        returning d.id, d.endpoint_id
      ), logged as (
        insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)
        select v.id, v.attempt, v.started, v.duration, v.status, v.error from v join done on done.id = v.id
        on conflict (delivery_id, attempt) do nothing
      ), streak as (
        update webhook_endpoints e set failing_since = coalesce(e.failing_since, s.started)
        from (select done.endpoint_id, min(v.started) as started from done join v on v.id = done.id group by done.endpoint_id) s
        where e.id = s.endpoint_id
        returning e.id, e.status, e.failing_since
      )
      select done.id::text as id, streak.status, streak.failing_since
      from done left join streak on streak.id = done.endpoint_id`.execute(this.#work);
    const byId = new Map(r.rows.map((x) => [String(x.id), x]));
    return items.map(({ c }) => {
      const x = byId.get(String(c.deliveryId));
      if (!x) return null;
      return x.status === null || x.failing_since === null ? undefined : { status: x.status, failingSince: new Date(x.failing_since) };
    });
  }

  /** Forgets deliveries finished (delivered or given up) before `before`, with their attempts. */
  async purgeFinished(before: Date): Promise<number> {
    const r = await this.db
      .deleteFrom('webhook_deliveries')
      .where('state', '<>', 'pending')
      .where('updated_at', '<', before)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

/** An attempt as the batched outcome statements read it (json_to_recordset): the delivery, its claim and what the attempt met. */
const attemptRow = (c: ClaimedDelivery, o: AttemptOutcome) => ({
  id: c.deliveryId,
  token: c.claimToken,
  attempt: c.attempt,
  started: o.startedAt.toISOString(),
  duration: o.durationMs,
  status: o.statusCode,
});
