import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Transaction } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { encodeAnswerRef } from '../domain/idempotency/answer-ref.ts';
import { IDEMPOTENCY_KEPT_MS } from '../domain/idempotency/retention.ts';
import type { Clock } from '../domain/ports.ts';
import type { Db } from './db.ts';
import { isStoreUnavailable } from './store-unavailable.ts';
import type { Database } from './schema.ts';

/**
 * A request carrying an Idempotency-Key, as its unit of work sees it (docs/design/server-layers.md). `open`:
 * the next transaction claims the key; `claiming`: one does; `committed`: its claim committed with its work;
 * `unknown`: its commit may or may not have happened (the store was lost); `answered`: nothing more to keep.
 */
export interface KeyedRequest {
  scope: string;
  key: string;
  fingerprint: string;
  state: 'open' | 'claiming' | 'committed' | 'unknown' | 'answered';
  /** The answer's trace id and timestamp, which a reference keeps. */
  traceId: string;
  at: string;
  /** A route answered by reference (http/plugins/answer-by-reference.ts): the status its transaction keeps. */
  byRef?: number | undefined;
  keptInWork?: boolean;
}

/** A key's row, as a request that could not claim it meets it. */
export interface KeyRow {
  fingerprint: string;
  state: string;
  status: number | null;
  response: string | null;
}

/** The keyed request a piece of code runs for (set by http/plugins/idempotency.ts). */
export const keyedRequests = new AsyncLocalStorage<KeyedRequest>();

/** Thrown by a transaction whose key has a row already: the request answers as that row says. */
export class KeyTaken extends Error {
  constructor(readonly row: KeyRow) {
    super('idempotency: the key has a row');
  }
}

/** How long a claim waits for another transaction holding the same key before answering 409 (PostgreSQL). */
const WAIT = '100ms';
const LOCK_TIMEOUT = '55P03';

/** One table, `idempotency_keys`: a row per scope and key, claimed by the request's own transaction. */
export class IdempotencyStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `transaction` (which calls claim and keepInWork inside) for a keyed request, and records how it
   * ended: committed, rolled back (the key is open again), or unknown.
   */
  async ran<T>(k: KeyedRequest, transaction: () => Promise<T>): Promise<T> {
    k.state = 'claiming';
    try {
      const r = await transaction();
      k.state = 'committed';
      return r;
    } catch (e) {
      k.keptInWork = false;
      if (k.state === 'claiming') k.state = isStoreUnavailable(e) ? 'unknown' : 'open';
      throw e;
    }
  }

  /**
   * The transaction's first statement: the key's row, in flight. Its unique index makes another transaction
   * claiming the key wait for this one; that one answers 409 once WAIT has passed (the lock timeout is
   * restored when the row is written). A row past its retention is taken over; a live one is thrown (KeyTaken).
   */
  async claim(tx: Tx, k: KeyedRequest): Promise<void> {
    const now = this.clock.now();
    let claimed;
    try {
      claimed = await sql`insert into idempotency_keys as k (scope, key, fingerprint, state, status, response, created_at, expires_at)
        select ${k.scope}, ${k.key}, ${k.fingerprint}, 'in_flight', null, null, ${now}, ${new Date(now.getTime() + IDEMPOTENCY_KEPT_MS)}
        from (select set_config('lock_timeout', ${WAIT}, true)) w
        on conflict (scope, key) do update set fingerprint = excluded.fingerprint, state = 'in_flight', status = null, response = null,
          created_at = excluded.created_at, expires_at = excluded.expires_at
          where k.expires_at <= excluded.created_at
        returning set_config('lock_timeout', '0', true)`.execute(tx);
    } catch (e) {
      if ((e as { code?: string }).code !== LOCK_TIMEOUT) throw e;
      k.state = 'answered';
      throw new DomainError('idempotency.in_progress');
    }
    if (claimed.rows.length > 0) return;
    k.state = 'answered';
    throw new KeyTaken(
      await tx
        .selectFrom('idempotency_keys')
        .select(COLUMNS)
        .where('scope', '=', k.scope)
        .where('key', '=', k.key)
        .executeTakeFirstOrThrow(),
    );
  }

  /** The transaction's last statement, for a route answered by reference: the answer names the record it returns. */
  async keepInWork(tx: Tx, k: KeyedRequest, result: unknown): Promise<void> {
    const id = (result as { id?: unknown } | undefined)?.id;
    if (k.byRef === undefined || typeof id !== 'string') return;
    const response = encodeAnswerRef({ id, traceId: k.traceId, timestamp: k.at });
    await tx
      .updateTable('idempotency_keys')
      .set({ state: 'done', status: k.byRef, response })
      .where('scope', '=', k.scope)
      .where('key', '=', k.key)
      .execute();
    k.keptInWork = true;
  }

  /**
   * Keeps an answer once it is sent: on the request's committed claim (`claimed`), or, for a request whose
   * work claimed nothing (a refusal, work outside a transaction), as a new row unless the key has one.
   */
  async complete(k: KeyedRequest, status: number, response: string, claimed: boolean): Promise<void> {
    const now = this.clock.now();
    await sql`insert into idempotency_keys as k (scope, key, fingerprint, state, status, response, created_at, expires_at)
      select ${k.scope}, ${k.key}, ${k.fingerprint}, 'done', ${status}, ${response}, ${now}, ${new Date(now.getTime() + IDEMPOTENCY_KEPT_MS)}
      from (select set_config('lock_timeout', ${WAIT}, true)) w
      on conflict (scope, key) do update set state = 'done', status = excluded.status, response = excluded.response
        where ${claimed} and k.state = 'in_flight'`.execute(this.db);
  }

  /** The key's live row, if any. */
  async find(k: KeyedRequest): Promise<KeyRow | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .select(COLUMNS)
      .where('scope', '=', k.scope)
      .where('key', '=', k.key)
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
  }

  /** Deletes keys past their retention, at most `limit` at a time; returns how many. */
  async purgeExpired(limit = 1000): Promise<number> {
    const r = await sql`delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at <= ${this.clock.now()} limit ${limit})`.execute(this.db);
    return Number(r.numAffectedRows ?? 0n);
  }
}

const COLUMNS = ['fingerprint', 'state', 'status', 'response'] as const;
type Tx = Transaction<Database>;
