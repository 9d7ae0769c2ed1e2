import type { Quote as WireQuote } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import { idPath } from './list.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

/**
 * Spec: Quote, plus `base` and `quote` as Money (their decimals travel with them). `rateQuoteMinor`:
 * minimum units of the quote asset per one whole base unit. Held until `expiresAt`.
 */
export type Quote = Amounts<WireQuote>;

/** Exactly one of the two amounts (spec: CreateQuote). */
export type CreateQuoteParams = { baseSymbol: string; quoteSymbol: string } & (
  { amountBaseMinor: bigint; amountQuoteMinor?: never } | { amountQuoteMinor: bigint; amountBaseMinor?: never }
);

export class QuotesResource {
  constructor(private readonly t: Transport) {}

  /**
   * `POST /api/v1/quotes`. A quote commits to nothing and moves nothing (spec §6), so a lost response
   * is simply asked again. 422 quotes.quote_below_executable_rate means "no price at the moment".
   */
  async create(p: CreateQuoteParams, opts: WriteOptions = {}): Promise<Quote> {
    const body = {
      baseSymbol: p.baseSymbol,
      quoteSymbol: p.quoteSymbol,
      ...(p.amountBaseMinor !== undefined ? { amountBaseMinor: p.amountBaseMinor } : {}),
      ...(p.amountQuoteMinor !== undefined ? { amountQuoteMinor: p.amountQuoteMinor } : {}),
    };
    return (await this.t.request<Quote>({ method: 'POST', path: '/quotes', body, ...keyOf(opts) }, { resendWhenUnknown: true })).value.data;
  }

  /** `GET /api/v1/quotes/:id`: a quote of the organization (for some time after it expired). */
  async get(id: string): Promise<Quote> {
    return (await this.t.get<Quote>(idPath('/quotes', id))).data;
  }
}
