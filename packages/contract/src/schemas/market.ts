import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, DateTime } from './common.ts';

/** PUT /operator/v1/market/pairs/:base/:quote (CONTRACT §3): how the simulated market prices the pair. */
export const PutMarketPair = Type.Object({
  midRate: Type.String({ pattern: '^[0-9]{1,40}(\\.[0-9]{1,36})?$', description: 'whole quote units per one whole base unit, as a decimal string, e.g. "65000.00"' }),
  spreadBps: Type.Integer({ minimum: 0, maximum: 9999 }),
  feeBps: Type.Integer({ minimum: 0, maximum: 9999 }),
  fixedFeeQuoteMinor: AmountInput,
  minBaseMinor: AmountInput,
  maxBaseMinor: AmountInput,
}, { additionalProperties: false });
export type PutMarketPair = Static<typeof PutMarketPair>;

export const MarketPairRecord = Type.Object({
  baseSymbol: Type.String(),
  quoteSymbol: Type.String(),
  baseDecimals: Type.Integer(),
  quoteDecimals: Type.Integer(),
  midRate: Type.String(),
  spreadBps: Type.Integer(),
  feeBps: Type.Integer(),
  fixedFeeQuoteMinor: AmountString,
  minBaseMinor: AmountString,
  maxBaseMinor: AmountString,
  rateQuoteMinor: Type.String({ pattern: '^[0-9]{1,78}$', description: 'the rate offered to clients now: floor(midRate × (1 − spread) × 10^quoteDecimals)' }),
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
