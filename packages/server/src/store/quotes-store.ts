import { sql } from 'kysely';
import type { Quote } from '../domain/quotes/quote.ts';
import { answered, claimAnsweredSql, keepAnswersSql, type AnswerInWork } from './answers-in-work.ts';
import { Batcher, Failed } from './batcher.ts';
import type { Db } from './db.ts';

/** A quote to write, and the Idempotency-Key's answer to keep with it when it was asked with one. */
interface NewQuote { quote: Quote; keep: AnswerInWork<Quote> | undefined }

const column = <K extends keyof Quote>(qs: Quote[], k: K, f: (v: Quote[K]) => string | number = String) => qs.map((q) => f(q[k]));

/** Quotes are kept so that they can be accepted once, by the organization that asked (orders-store consumes them). */
export class QuotesStore {
  constructor(private readonly db: Db) {}

  /**
   * Stores a quote so that it can be accepted once. Quotes made at the same moment are written by one
   * statement (one commit for all); a batch that fails is written again one quote at a time, so one
   * quote's failure is its own. With `keep`, the same statement keeps the Idempotency-Key's answer,
   * claiming the key when the request has not: false when the key was held by another request (then
   * nothing is written).
   */
  async create(quote: Quote, keep?: AnswerInWork<Quote>): Promise<boolean> {
    return this.#batch.load({ quote, keep });
  }

  readonly #batch = new Batcher<NewQuote, boolean>(async (ns) => {
    if (ns.length > 1) {
      const all = await this.#insert(ns).catch(() => null);
      if (all) return all;
    }
    // Alone, or isolating the one that failed: each quote is answered with its own outcome.
    const outcomes = await Promise.allSettled(ns.map(async (n) => (await this.#insert([n]))[0]!));
    return outcomes.map((o) => (o.status === 'rejected' ? new Failed(o.reason) : o.value));
  }, { maxBatch: 64, maxInFlight: 4 });

  /**
   * Writes the quotes and, in the same statement, the answers of those asked with an Idempotency-Key;
   * a quote whose unclaimed key another request holds is not written (false).
   */
  async #insert(ns: NewQuote[]): Promise<boolean[]> {
    // A key claimed twice in one batch: the first claims it; the other meets it held, as if it came after.
    const claiming = new Set<string>();
    const plan = ns.map((n) => {
      const answer = n.keep?.answer(n.quote);
      if (answer && !answer.claimed) {
        const id = JSON.stringify([answer.scope, answer.key]);
        if (claiming.has(id)) return null;
        claiming.add(id);
      }
      return { ...n, answer };
    });
    const rows = plan.filter((p) => p !== null);
    const qs = rows.map((p) => p.quote);
    // A quote whose key it claims is written only if the claim is made: its scope and key, else nulls.
    const claimOf = rows.map((p) => (p.answer && !p.answer.claimed ? p.answer : null));
    const insert = sql`insert into quotes (id, organization_id, base_symbol, quote_symbol, base_decimals, quote_decimals,
        rate_quote_minor, amount_base_minor, amount_quote_minor, expires_at, consumed_at, created_at)
      select id, org, base, quote, bd, qd, rate, ab, aq, exp, null, created from unnest(
        ${column(qs, 'id')}::text[], ${column(qs, 'organizationId')}::text[], ${column(qs, 'baseSymbol')}::text[],
        ${column(qs, 'quoteSymbol')}::text[], ${column(qs, 'baseDecimals', Number)}::int[], ${column(qs, 'quoteDecimals', Number)}::int[],
        ${column(qs, 'rateQuoteMinor')}::numeric[], ${column(qs, 'amountBaseMinor')}::numeric[], ${column(qs, 'amountQuoteMinor')}::numeric[],
        ${column(qs, 'expiresAt', (d) => d.toISOString())}::timestamptz[], ${column(qs, 'createdAt', (d) => d.toISOString())}::timestamptz[],
        ${claimOf.map((a) => a?.scope ?? null)}::text[], ${claimOf.map((a) => a?.key ?? null)}::text[]
      ) as t(id, org, base, quote, bd, qd, rate, ab, aq, exp, created, s, k)`;
    const answers = rows.flatMap((p) => (p.answer ? [p.answer] : []));
    if (answers.length === 0 && rows.length === ns.length) {
      await insert.execute(this.db);
      return ns.map(() => true);
    }
    const fresh = answers.filter((a) => !a.claimed);
    const claimed = answers.filter((a) => a.claimed);
    const none = sql`select null::text as scope, null::text as key where false`;
    const r = await sql<{ scope: string; key: string }>`with
        fresh as (${fresh.length ? claimAnsweredSql(fresh) : none}),
        kept as (${claimed.length ? keepAnswersSql(claimed) : none}),
        written as (${insert} where t.s is null or exists (select 1 from fresh where fresh.scope = t.s and fresh.key = t.k))
      select scope, key from fresh union all select scope, key from kept`.execute(this.db);
    const done = answered(answers, r.rows);
    return plan.map((p) => {
      if (p === null) return false;
      if (!p.answer) return true;
      const kept = done.includes(p.answer);
      if (kept) p.keep!.kept();
      // A claimed key's quote is written whether or not its answer could be kept (its claim lapsed meanwhile).
      return p.answer.claimed || kept;
    });
  }

  /** One quote of one organization (another organization's is not found). */
  async get(organizationId: string, id: string): Promise<Quote | null> {
    const r = await this.db.selectFrom('quotes').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
    return r ? {
      id: r.id, organizationId: r.organization_id, baseSymbol: r.base_symbol, baseDecimals: r.base_decimals, quoteSymbol: r.quote_symbol, quoteDecimals: r.quote_decimals,
      rateQuoteMinor: BigInt(r.rate_quote_minor), amountBaseMinor: BigInt(r.amount_base_minor), amountQuoteMinor: BigInt(r.amount_quote_minor),
      expiresAt: r.expires_at, createdAt: r.created_at,
    } : null;
  }

  /**
   * Deletes unaccepted quotes that expired before `before`, at most `limit` at a time; returns how
   * many. Accepted quotes stay (their order points at them). Accepting a purged quote still answers
   * 410 orders.quote_expired: its id tells its organization when it expired (domain/quotes/quote-id.ts).
   */
  async purgeExpired(before: Date, limit = 5_000): Promise<number> {
    const r = await this.db.deleteFrom('quotes').where('id', 'in', (eb) => eb.selectFrom('quotes').select('id')
      .where('consumed_at', 'is', null).where('expires_at', '<', before).limit(limit)).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

/**
 * A quote is still priced in the market's units: the decimals it carries are the assets' current
 * ones (a change of decimals is refused while quotes are live; this closes the race with one in flight).
 * `q` names the quotes row.
 */
export const quoteDecimalsCurrent = (q: string) => sql<boolean>`(${sql.ref(`${q}.base_decimals`)} = (select decimals from market_assets where symbol = ${sql.ref(`${q}.base_symbol`)})
  and ${sql.ref(`${q}.quote_decimals`)} = (select decimals from market_assets where symbol = ${sql.ref(`${q}.quote_symbol`)}))`;
