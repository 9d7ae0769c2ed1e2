import { sql } from 'kysely';
import type { Quote } from '../domain/quotes/quote.ts';
import {
  AnswersOfWork,
  howKeysAreClaimed,
  claimedRecordIds,
  claimKeysAsWrittenCtes,
  claimedKeyOutcomes,
  claimNewKeysSql,
  distinctKeys,
  mustLookAtKeys,
  writableUnderKeys,
  keepAnswersSql,
  keyOf,
  type AnswerInWork,
} from './answers-in-work.ts';
import { Batcher, Failed } from './batcher.ts';
import type { Db } from './db.ts';
import type { QuotesRepository } from '../usecases/repositories.ts';

/**
 * A quote to write, and the Idempotency-Key's answer to keep with it when it was asked with one: by
 * reference to the quote's id (domain/idempotency/answer-ref.ts).
 */
interface NewQuote {
  quote: Quote;
  keep: AnswerInWork<string> | undefined;
}

const column = <K extends keyof Quote>(qs: Quote[], k: K, f: (v: Quote[K]) => string | number = String) => qs.map((q) => f(q[k]));

/** Quotes are kept so that they can be accepted once, by the organization that asked (orders-store consumes them). */
export class QuotesStore implements QuotesRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores a quote so that it can be accepted once. Quotes made at the same moment are written by one
   * statement (one commit for all); a batch that fails is written again one quote at a time, so one
   * quote's failure is its own.
   */
  async create(quote: Quote, keep?: AnswerInWork<string>): Promise<void> {
    await this.#batch.load({ quote, keep });
  }

  readonly #batch = new Batcher<NewQuote, void>(
    async (ns) => {
      if (
        ns.length > 1 &&
        (await this.#insert(ns).then(
          () => true,
          () => false,
        ))
      )
        return ns.map(() => undefined);
      // Alone, or isolating the one that failed: each quote is answered with its own outcome.
      const outcomes = await Promise.allSettled(ns.map((n) => this.#insert([n])));
      return outcomes.map((o) => (o.status === 'rejected' ? new Failed(o.reason) : undefined));
    },
    { maxBatch: 64, maxInFlight: 4 },
  );

  /**
   * Writes the quotes and, in the same statement, the answers of those asked with an Idempotency-Key. That
   * statement claims their keys too (claimNewKeysSql, else claimKeysAsWrittenCtes): a quote whose key it could not claim
   * is not written, and its request is told why (AnswerInWork.unclaimed).
   */
  async #insert(ns: NewQuote[]): Promise<void> {
    const answers = new AnswersOfWork();
    for (const n of ns) answers.add(n.keep, n.quote.id);
    const qs = ns.map((n) => n.quote);
    const insert = (
      where = sql``,
      returning = true,
    ) => sql`insert into quotes (id, organization_id, base_symbol, quote_symbol, base_decimals, quote_decimals,
        rate_quote_minor, amount_base_minor, amount_quote_minor, expires_at, consumed_at, created_at)
      select id, org, base, quote, bd, qd, rate, ab, aq, exp, null, created from unnest(
        ${column(qs, 'id')}::text[], ${column(qs, 'organizationId')}::text[], ${column(qs, 'baseSymbol')}::text[],
        ${column(qs, 'quoteSymbol')}::text[], ${column(qs, 'baseDecimals', Number)}::int[], ${column(qs, 'quoteDecimals', Number)}::int[],
        ${column(qs, 'rateQuoteMinor')}::numeric[], ${column(qs, 'amountBaseMinor')}::numeric[], ${column(qs, 'amountQuoteMinor')}::numeric[],
        ${column(qs, 'expiresAt', (d) => d.toISOString())}::timestamptz[], ${column(qs, 'createdAt', (d) => d.toISOString())}::timestamptz[]
      ) as t(id, org, base, quote, bd, qd, rate, ab, aq, exp, created)
      ${where}
      ${returning ? sql`returning id` : sql``}`;
    const all = answers.answers;
    if (all.length === 0) {
      await insert().execute(this.db);
      return;
    }
    if (howKeysAreClaimed(all, 'quotes') === 'before') {
      // Claimed before the work: the statement writes every quote and keeps every answer on its own claim, or
      // aborts (1/0: a claim whose lease lapsed and that another request took over; the batch is then tried
      // quote by quote, and only that one fails).
      const keys = new Set(all.map((a) => keyOf(a))).size;
      const r = await sql<{ kept: Array<{ scope: string; key: string }> }>`with kept as (${keepAnswersSql(all)}),
        written as (${insert(sql``, false)}),
        guard as (select 1 / (case when (select count(*) from kept) = ${keys} then 1 else 0 end) as ok)
        select (select ok from guard) as ok, (select json_agg(json_build_object('scope', scope, 'key', key)) from kept) as kept`.execute(
        this.db,
      );
      answers.answered(r.rows[0]!.kept);
      answers.tell();
      return;
    }
    // Every keyed quote's key is claimed by this statement (claimInWork): new keys, all of them, as a rule;
    // otherwise each key is looked at (a replay, another body's key, a retry of a claim abandoned).
    if (distinctKeys(all)) {
      try {
        await sql`with claimed as (${claimNewKeysSql(all)}) ${insert(sql``, false)}`.execute(this.db);
        answers.answered(all);
        answers.tell();
        return;
      } catch (e) {
        if (!mustLookAtKeys(e)) throw e;
      }
    }
    const r = await sql<{ scope: string; key: string; kept: boolean; busy: boolean }>`with ${claimKeysAsWrittenCtes(all)},
          written as (${insert(sql`where ${writableUnderKeys('t.id', all, claimedRecordIds)}`)})
          ${claimedKeyOutcomes}`.execute(this.db);
    answers.answered(r.rows);
    answers.tell();
  }

  /** One quote of one organization (another organization's is not found). */
  async get(organizationId: string, id: string): Promise<Quote | null> {
    const r = await this.db
      .selectFrom('quotes')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return r
      ? {
          id: r.id,
          organizationId: r.organization_id,
          baseSymbol: r.base_symbol,
          baseDecimals: r.base_decimals,
          quoteSymbol: r.quote_symbol,
          quoteDecimals: r.quote_decimals,
          rateQuoteMinor: BigInt(r.rate_quote_minor),
          amountBaseMinor: BigInt(r.amount_base_minor),
          amountQuoteMinor: BigInt(r.amount_quote_minor),
          expiresAt: r.expires_at,
          createdAt: r.created_at,
        }
      : null;
  }

  /**
   * Deletes unaccepted quotes that expired before `before`, at most `limit` at a time; returns how
   * many. Accepted quotes stay (their order points at them). Accepting a purged quote still answers
   * 410 orders.quote_expired: its id tells its organization when it expired (domain/quotes/quote-id.ts).
   */
  async purgeExpired(before: Date, limit = 5_000): Promise<number> {
    const r = await this.db
      .deleteFrom('quotes')
      .where('id', 'in', (eb) =>
        eb.selectFrom('quotes').select('id').where('consumed_at', 'is', null).where('expires_at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

/**
 * A quote is still priced in the market's units: the decimals it carries are the assets' current
 * ones (a change of decimals is refused while quotes are live; this closes the race with one in flight).
 * `q` names the quotes row.
 */
export const quoteDecimalsCurrent = (
  q: string,
) => sql<boolean>`(${sql.ref(`${q}.base_decimals`)} = (select decimals from market_assets where symbol = ${sql.ref(`${q}.base_symbol`)})
  and ${sql.ref(`${q}.quote_decimals`)} = (select decimals from market_assets where symbol = ${sql.ref(`${q}.quote_symbol`)}))`;
