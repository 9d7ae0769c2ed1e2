import { Type, type Static } from '@sinclair/typebox';
import { AmountString, DateTime, Nullable } from './common.ts';

/** Decimal text exactly as the venue wrote it (a price or a quantity), never a float. */
const VenueDecimal = Type.String({ pattern: '^[0-9]{1,40}(\\.[0-9]{1,40})?$', description: 'decimal text as the venue reported it' });

/** One pair priced from the venue's order book, and the book held for it now. */
export const VenuePairView = Type.Object({
  baseSymbol: Type.String(),
  quoteSymbol: Type.String(),
  venueSymbol: Type.String({ description: 'the venue market, CCXT unified symbol (BTC/USDT)' }),
  maxBookAgeMs: Type.Integer({ description: 'a quote never uses a book older than this' }),
  bookAgeMs: Nullable(Type.Integer(), {
    description: "age of the held book from the receipt of the venue's answer; null: no book held (not quoted lately)",
  }),
  fresh: Type.Boolean({ description: 'the held book is young enough to quote from' }),
  bestBid: Nullable(VenueDecimal),
  bestBidQty: Nullable(VenueDecimal),
  bestAsk: Nullable(VenueDecimal),
  bestAskQty: Nullable(VenueDecimal),
});
export type VenuePairView = Static<typeof VenuePairView>;

/** One venue's health, as the desk watches it. */
const venueStatusFields = {
  exchange: Nullable(Type.String(), { description: 'the CCXT exchange id (binance); null for the desk and the simulated venue' }),
  health: Type.Unsafe<'ok' | 'failing' | 'idle'>({
    type: 'string',
    enum: ['ok', 'failing', 'idle'],
    description: 'ok: the last request to the venue succeeded; failing: it failed; idle: nothing asked yet',
  }),
  lastSuccessAt: Nullable(DateTime),
  lastError: Nullable(
    Type.Object({
      kind: Type.String({ description: 'where (book, order, lookup, balances, deposits, markets) and the error class' }),
      detail: Type.String(),
      at: DateTime,
    }),
  ),
  errors: Type.Array(Type.Object({ kind: Type.String(), count: Type.Integer() }), { description: 'failed requests since start, by kind' }),
  awaitingOutcome: Type.Integer({ description: 'orders sent whose outcome is not known yet (looked up until it is)' }),
  partialFills: Type.Integer({ description: 'orders the venue filled in part: they wait for the desk' }),
  pairs: Type.Array(VenuePairView),
};

/** One of several connected venues (CAMBIO_VENUES), by its name. */
export const VenueMemberView = Type.Object({
  name: Type.String({ description: "the venue's name, what quotes and orders record as their venue" }),
  ...venueStatusFields,
});
export type VenueMemberView = Static<typeof VenueMemberView>;

/** GET /operator/v1/venue: the market behind production and how it answers (with several venues, the first's fields and `venues`). */
export const VenueView = Type.Object({
  kind: Type.Unsafe<'ccxt' | 'desk' | 'simulated'>({ type: 'string', enum: ['ccxt', 'desk', 'simulated'] }),
  name: Type.Optional(Type.String({ description: "the (first) venue's name" })),
  ...venueStatusFields,
  venues: Type.Optional(Type.Array(VenueMemberView, { description: 'every connected exchange account, in the order they are listed' })),
});
export type VenueView = Static<typeof VenueView>;

export const VenueExecutionState = Type.Unsafe<'new' | 'sending' | 'unknown' | 'filled' | 'refused' | 'partial'>({
  type: 'string',
  enum: ['new', 'sending', 'unknown', 'filled', 'refused', 'partial'],
  description: 'sending/unknown: the outcome is being looked up; partial: waits for the desk to record the fill',
});

/** One order sent to the venue, with the venue's own figures. */
export const VenueExecution = Type.Object({
  orderId: Type.String(),
  organizationId: Type.String(),
  orderState: Type.String({ description: "the exchange request's state at Cambio" }),
  venue: Type.String(),
  venueSymbol: Type.String(),
  side: Type.Unsafe<'sell' | 'buy'>({ type: 'string', enum: ['sell', 'buy'], description: 'what the platform did at the venue' }),
  amountSent: VenueDecimal,
  state: VenueExecutionState,
  attempts: Type.Integer(),
  venueOrderId: Nullable(Type.String()),
  executedQty: Nullable(Type.String({ description: 'base quantity the venue executed, its decimal text' })),
  quoteQty: Nullable(Type.String({ description: 'quote quantity the venue executed, its decimal text' })),
  baseSymbol: Type.String(),
  quoteSymbol: Type.String(),
  quoteDecimals: Type.Integer(),
  owedQuoteMinor: AmountString,
  proceedsQuoteMinor: Nullable(AmountString),
  reason: Nullable(Type.String()),
  sentAt: Nullable(DateTime),
  updatedAt: DateTime,
});
export type VenueExecution = Static<typeof VenueExecution>;

export const VenueExecutionQuery = Type.Object(
  {
    state: Type.Optional(VenueExecutionState),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);
export type VenueExecutionQuery = Static<typeof VenueExecutionQuery>;

const stepText = (description: string) => Type.String({ pattern: VenueDecimal.pattern, description });

/**
 * GET /operator/v1/venue/markets: one spot market the venue trades, with its steps as exact decimal text
 * (docs/market.md, "The venue's markets"). An empty list under a venue without market data (the desk, the
 * simulated venue).
 */
export const VenueMarketListing = Type.Object({
  symbol: Type.String({ description: "the venue market, CCXT unified symbol (BTC/USDT): what a pair's venueSymbol names" }),
  baseSymbol: Type.String(),
  quoteSymbol: Type.String(),
  amountStep: stepText("an order's base quantity is a multiple of this (decimal text; 0: no step)"),
  priceStep: stepText("the venue's prices are multiples of this, its tick (decimal text; 0: no step)"),
  minNotional: Type.Optional(
    stepText('the smallest order the venue takes, in the quote currency (decimal text); absent when it sets none'),
  ),
});
export type VenueMarketListing = Static<typeof VenueMarketListing>;

const levelText = (description: string) => Type.Union([stepText(description), Type.Null()]);

/**
 * GET /operator/v1/venue/markets/book?symbol=: the best levels of one venue market's book at each connected
 * venue trading it, read now (docs/market.md): what staff look at before pricing a pair from it. Prices and
 * quantities are the venue's decimal text; null on an empty side.
 */
export const VenueBookLevels = Type.Object({
  venue: Type.String({ description: "the venue's name (CAMBIO_VENUES), else the exchange id" }),
  symbol: Type.String(),
  bookAgeMs: Type.Integer({ minimum: 0, description: 'how long ago the venue answered with this book' }),
  bestBid: levelText('the highest bid'),
  bestBidQty: levelText("the highest bid's quantity, in the base"),
  bestAsk: levelText('the lowest ask'),
  bestAskQty: levelText("the lowest ask's quantity, in the base"),
});
export type VenueBookLevels = Static<typeof VenueBookLevels>;
export const VenueBookQuery = Type.Object({ symbol: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type VenueBookQuery = Static<typeof VenueBookQuery>;
