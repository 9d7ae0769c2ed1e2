import { sql, type RawBuilder } from 'kysely';
import { keyOf, type KeptAnswer } from '../domain/idempotency/answers-of-work.ts';

export { AnswersOfWork, keyOf, type AnswerInWork, type KeptAnswer } from '../domain/idempotency/answers-of-work.ts';

/**
 * Marks claimed keys done with their answers; returns the SQL of one statement that answers the scope and
 * key of each claim it answered. The claim is a row in flight, which this updates; it changes no indexed
 * column (`expires_at` was set by the claim, migration 015), so PostgreSQL updates the row in place on its
 * page (a HOT update): no new entry in the primary key or the expiry index. A key whose row is no longer
 * in flight under the claim the answer names (KeptAnswer.claimedUntil: its lease; it lapsed and another
 * request took the key over, or answered it) is left as it is: that answer is not kept, and its work aborts.
 * `written`: a query of the ids of the records the statement wrote, for answers kept by reference
 * (`work`); an answer whose record was not written is not kept.
 */
export const keepAnswersSql = (as: KeptAnswer[], written?: RawBuilder<unknown>) =>
  sql<{ scope: string; key: string }>`insert into idempotency_keys as k
      (scope, key, fingerprint, state, lease_until, status, response, created_at, expires_at)
    select t.s, t.k, t.f, 'done', coalesce(t.l, t.at), t.st, t.r, t.at, t.e
    from ${answerRows(as)}
    ${written ? sql`where t.w in (${written})` : sql``}
    on conflict (scope, key) do update set state = 'done', status = excluded.status, response = excluded.response
      where k.state = 'in_flight' and k.lease_until = excluded.lease_until
    returning k.scope, k.key`;

/**
 * Claims the keys in the work's own statement (a quote) or in a statement of its transaction before
 * anything is written (a withdrawal, with the destination's read) and keeps their answers there, so a keyed
 * call costs no round trip of its own. Two CTEs: `claim_try`, each
 * key once (the first answer of a key in the batch), with `got`: this transaction took the key's advisory
 * lock, which every statement claiming a key this way takes first and holds to its commit, so a second
 * request with the key while the first one's statement runs is told `busy` (409) instead of waiting for it
 * (on PostgreSQL, across instances; PGlite's one session always gets it, and its requests are held in flight
 * by the process: IdempotencyStore.holdInFlight);
 * and `claimed`: the keys whose answer row it wrote, new ones, or one past its retention or an abandoned
 * claim, taken over. A key with a live row is not claimed: the route reads the row (a replay, 422, 409).
 * The work must write the record of a claimed key only, and of every other key claimed here none
 * (`writableUnderKeys` with claimedRecordIds).
 */
export const claimKeysAsWrittenCtes = (as: KeptAnswer[]) => sql`${claimTry(as)},
    claimed as (${insertAnswered(sql`claim_try`, sql`c.got`)})`;

/**
 * The common case of claimKeysAsWrittenCtes, as a cheaper statement: every key of the batch is new and no other
 * statement is claiming it, so a plain insert of their answered rows claims them all. A key that has a row
 * already (live, past its retention, or an abandoned claim) or whose advisory lock another statement holds
 * makes the statement fail as a whole (mustLookAtKeys), writing nothing; the work then runs again under
 * claimKeysAsWrittenCtes, which sorts out each key. The keys must be distinct (distinctKeys). Cheaper, because
 * a plain insert skips ON CONFLICT's speculative insertion and returns nothing: every key of a statement that
 * committed was claimed by it.
 */
export const claimNewKeysSql = (as: KeptAnswer[]) => sql`insert into idempotency_keys
      (scope, key, fingerprint, state, lease_until, status, response, created_at, expires_at)
    select t.s, t.k, t.f, 'done', t.at, t.st, t.r, t.at, t.e from ${answerRows(as)}
    where 1 / pg_try_advisory_xact_lock(hashtextextended(t.s || chr(10) || t.k, 0))::int = 1`;

/**
 * Whether `e` is how claimNewKeysSql fails when a key is not simply new: its row exists (a unique violation
 * of the keys' primary key), or another statement holds its lock (the division by zero of the lock's guard).
 */
export const mustLookAtKeys = (e: unknown) =>
  typeof e === 'object' &&
  e !== null &&
  'code' in e &&
  ((e.code === '23505' && 'constraint' in e && e.constraint === 'idempotency_keys_pkey') || e.code === '22012');

/** Whether no key appears twice among the answers (claimNewKeysSql's precondition). */
export const distinctKeys = (as: KeptAnswer[]) => new Set(as.map((a) => keyOf(a))).size === as.length;

/** Each key once, with `got`: this transaction took the key's advisory lock (claimKeysAsWrittenCtes). */
const claimTry = (as: KeptAnswer[]) => sql`claim_try as (
      select t.*, pg_try_advisory_xact_lock(hashtextextended(t.s || chr(10) || t.k, 0)) as got
      from ${answerRows(as)})`;

/**
 * Inserts the answered rows of the keys of `from` (claim_try's rows, `c`) that pass `where`; returns each
 * key it wrote. A key's row is taken over only when it is past its retention or an abandoned claim: a live
 * row stays, and its key is not returned.
 */
const insertAnswered = (from: RawBuilder<unknown>, where: RawBuilder<unknown>) => sql`insert into idempotency_keys as k
        (scope, key, fingerprint, state, lease_until, status, response, created_at, expires_at)
      select c.s, c.k, c.f, 'done', c.at, c.st, c.r, c.at, c.e from ${from} c where ${where}
      on conflict (scope, key) do update set fingerprint = excluded.fingerprint, state = 'done', lease_until = excluded.lease_until,
        status = excluded.status, response = excluded.response, created_at = excluded.created_at, expires_at = excluded.expires_at
        where k.expires_at <= excluded.created_at or (k.state = 'in_flight' and k.lease_until <= excluded.created_at)
      returning k.scope, k.key`;

/**
 * For work that may refuse inside its own statement (a batch of orders, orders-batch.ts): the
 * claim gates the work, and only the work's written records keep their keys' answers. `claim_try` as in
 * claimKeysAsWrittenCtes; `claimable`: the keys whose lock it took and which have no live row in the statement's
 * snapshot (none, or one past its retention or abandoned). The work runs for those keys only
 * (`claimableRecordIds`); `keepAnswersOfWritten` keeps the answers of the records it wrote. A key whose work the
 * statement refused keeps nothing: its request claims it before answering the refusal (answer-by-reference.ts,
 * `refusing`). A row another request inserted after the snapshot is not taken over: that key's answer is
 * not kept though its record was written, and the work must then abort (compare the counts).
 */
export const claimableKeysCtes = (as: KeptAnswer[]) => sql`${claimTry(as)},
    claimable as materialized (
      -- One primary-key lookup per key whatever the statistics say: a lateral subquery with a limit is never
      -- turned into an anti-join that scans every key.
      select c.* from claim_try c
      left join lateral (select 1 as live from idempotency_keys k where k.scope = c.s and k.key = c.k
        and k.expires_at > c.at and (k.state <> 'in_flight' or k.lease_until > c.at) limit 1) l on true
      where c.got and l.live is null)`;

/** The ids of the records whose keys claimableKeysCtes found claimable. */
export const claimableRecordIds = sql`select c.w from claimable c`;

/** claimableKeysCtes' answers of the records `written`: the statement of a CTE (`kept`) that returns each key it kept. */
export const keepAnswersOfWritten = (written: RawBuilder<unknown>) => insertAnswered(sql`claimable`, sql`c.w in (${written})`);

/**
 * What claimableKeysCtes and keepAnswersOfWritten (a CTE named `kept`) did with each key, for AnswersOfWork.answered:
 * `open`, the key was claimable and its work refused (nothing kept; the request claims it with its refusal).
 */
export const claimableKeyOutcomes = outcomesOf(sql`kept`, sql`, exists (select 1 from claimable y where y.s = c.s and y.k = c.k) as open`);

/** The ids of the records whose keys claimKeysAsWrittenCtes claimed. */
export const claimedRecordIds = sql`select c.w from claim_try c join claimed x on x.scope = c.s and x.key = c.k`;

/**
 * Whether the work may write the record whose id is `id` (a column): it has no key claimed in the work (a key
 * twice in a batch: both records have), or its key is among `claimedIds` (claimedRecordIds, claimableRecordIds).
 */
export const writableUnderKeys = (id: string, as: KeptAnswer[], claimedIds: RawBuilder<unknown>) =>
  sql`(${sql.ref(id)} <> all(${as.map((a) => a.work ?? '')}::text[]) or ${sql.ref(id)} in (${claimedIds}))`;

/** What claimKeysAsWrittenCtes did with each key, for AnswersOfWork.answered. */
export const claimedKeyOutcomes = outcomesOf(sql`claimed`);

/** Each key of claim_try: `kept` (its row is among those `written` returned) and `busy` (its lock was not got). */
function outcomesOf(written: RawBuilder<unknown>, more = sql``) {
  return sql`select c.s as scope, c.k as key, exists (select 1 from ${written} x where x.scope = c.s and x.key = c.k) as kept,
      not c.got as busy${more} from claim_try c`;
}

/**
 * How the keys of one statement's keyed answers are claimed: `before`, each by a row of its own before the
 * work (IdempotencyStore.claim), whose answer the work keeps (keepAnswersSql); `statement`, by the work's own
 * statement (KeptAnswer.claimInWork: a route configured `claimInWork`). A store claims every key one way, so a
 * mix is a fault.
 */
export function howKeysAreClaimed(as: KeptAnswer[], work: string): 'before' | 'statement' {
  if (as.every((a) => a.claimInWork)) return 'statement';
  if (as.every((a) => !a.claimInWork)) return 'before';
  throw new Error(`${work}: keyed answers whose keys are claimed both before the work and by its statement`);
}

/**
 * The answers as rows `t(s, k, f, st, r, at, e, l, w)`, one per key (the first), from one JSON parameter: on
 * PGlite that costs a fraction of text arrays (serialized by PGlite's JavaScript, parsed by its array_in).
 */
const answerRows = (as: KeptAnswer[]) =>
  sql`json_to_recordset(${JSON.stringify(
    oncePerKey(as).map((a) => ({
      s: a.scope,
      k: a.key,
      f: a.fingerprint,
      st: a.status,
      r: a.response,
      at: a.at.toISOString(),
      e: a.expiresAt.toISOString(),
      l: a.claimedUntil?.toISOString() ?? null,
      w: a.work ?? null,
    })),
  )}::json) as t(s text, k text, f text, st int, r text, at timestamptz, e timestamptz, l timestamptz, w text)`;

/** One answer per key (the first): a statement may not update one row twice. */
function oncePerKey(as: KeptAnswer[]): KeptAnswer[] {
  const seen = new Set<string>();
  return as.filter((a) => {
    const id = keyOf(a);
    return !seen.has(id) && Boolean(seen.add(id));
  });
}
