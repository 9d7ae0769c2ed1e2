import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, DateTime } from './common.ts';

/**
 * PUT /operator/v1/market/pairs/:base/:quote (docs/operator-guide.md, docs/market.md): how the market prices the pair: by a
 * `midRate`, or (production with a CCXT venue) from the venue's order book with `source: "venue"`.
 */
export const PutMarketPair = Type.Object(
  {
    midRate: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,40}(\\.[0-9]{1,36})?$',
        description: 'whole quote units per one whole base unit, as a decimal string, e.g. "65000.00"; left out with source "venue"',
      }),
    ),
    source: Type.Optional(
      Type.Union([Type.Literal('venue'), Type.Literal('static')], {
        description: '"venue": priced from the venue\'s order book (docs/market.md); left out or "static": by midRate',
      }),
    ),
    venueSymbol: Type.Optional(Type.String({ description: 'the venue\'s market, CCXT\'s unified symbol, e.g. "BTC/USDT"' })),
    maxBookAgeMs: Type.Optional(
      Type.Integer({ minimum: 100, maximum: 60000, description: 'the oldest book a quote may use (default 2000)' }),
    ),
    spreadBps: Type.Integer({ minimum: 0, maximum: 9999 }),
    feeBps: Type.Integer({ minimum: 0, maximum: 9999 }),
    fixedFeeQuoteMinor: AmountInput,
    minBaseMinor: AmountInput,
    maxBaseMinor: AmountInput,
  },
  { additionalProperties: false },
);
export type PutMarketPair = Static<typeof PutMarketPair>;

export const MarketPairRecord = Type.Object({
  baseSymbol: Type.String(),
  quoteSymbol: Type.String(),
  baseDecimals: Type.Integer(),
  quoteDecimals: Type.Integer(),
  midRate: Type.String({ description: "empty for a pair priced from the venue's book" }),
  source: Type.Optional(Type.Literal('venue')),
  venueSymbol: Type.Optional(Type.String()),
  maxBookAgeMs: Type.Optional(Type.Integer()),
  spreadBps: Type.Integer(),
  feeBps: Type.Integer(),
  fixedFeeQuoteMinor: AmountString,
  minBaseMinor: AmountString,
  maxBaseMinor: AmountString,
  rateQuoteMinor: Type.String({
    pattern: '^[0-9]{1,78}$',
    description: 'the rate offered to clients now: floor(midRate × (1 − spread) × 10^quoteDecimals)',
  }),
  updatedAt: DateTime,
});
export type MarketPairRecord = Static<typeof MarketPairRecord>;

/**
 * GET /api/v1/market/pairs: a pair a client can quote now, with the base amounts a quote accepts and
 * the decimals of both sides. The operator's terms (mid rate, spread, fees) are not part of it.
 */
export const TradablePair = Type.Object({
  baseSymbol: Type.String(),
  quoteSymbol: Type.String(),
  baseDecimals: Type.Integer(),
  quoteDecimals: Type.Integer(),
  minBaseMinor: Type.String({ pattern: '^[0-9]{1,78}$', description: 'the smallest base amount a quote accepts now (inclusive)' }),
  maxBaseMinor: Type.String({ pattern: '^[0-9]{1,78}$', description: 'the largest base amount a quote accepts (inclusive)' }),
});
export type TradablePair = Static<typeof TradablePair>;
