import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, AssetSymbol, DateTime, Money } from './common.ts';

/** CreateQuote: exactly one of the two amounts (checked by the server: quotes.exactly_one_amount). */
export const CreateQuote = Type.Object(
  {
    baseSymbol: AssetSymbol,
    quoteSymbol: AssetSymbol,
    amountBaseMinor: Type.Optional(AmountInput),
    amountQuoteMinor: Type.Optional(AmountInput),
  },
  {
    additionalProperties: false,
    description: 'baseSymbol is what the caller delivers, quoteSymbol what it receives; send exactly one amount',
  },
);
export type CreateQuote = Static<typeof CreateQuote>;

/** Quote (spec): the five fields of the spec, plus both amounts as Money so the decimals travel with them. */
export const Quote = Type.Object({
  id: Type.String({ description: 'send it later as quoteId' }),
  rateQuoteMinor: Type.String({
    pattern: '^[0-9]{1,78}$',
    description: 'minimum units of the quote asset per one whole unit of the base asset',
  }),
  amountBaseMinor: AmountString,
  amountQuoteMinor: AmountString,
  expiresAt: DateTime,
  base: Money,
  quote: Money,
});
export type Quote = Static<typeof Quote>;
