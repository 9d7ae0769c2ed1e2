import { Type, type Static } from '@sinclair/typebox';
import { AssetSymbol, DateTime, Nullable } from './common.ts';

/** A sum of amounts (a total, a value): digits, possibly longer than one amount's 78. */
const SumString = Type.String({ pattern: '^[0-9]{1,80}$', description: 'integer in minimum units, as decimal digits' });
const SignedSumString = Type.String({ pattern: '^-?[0-9]{1,80}$', description: 'signed integer in minimum units, as decimal digits' });

export const ReportLanguage = Type.Union([Type.Literal('en'), Type.Literal('es')]);
export type ReportLanguage = Static<typeof ReportLanguage>;

/** What the organization chose for its reports (docs/api-guide.md, Valuation and statements). */
export const ReportingSettings = Type.Object({
  reportingCurrency: Nullable(AssetSymbol, {
    description: 'the currency balances are valued in; when never chosen, USD if the market lists it, else null (no valuation)',
  }),
  chosen: Type.Boolean({ description: 'whether a member chose it (false: the default applies)' }),
  language: Nullable(ReportLanguage, { description: "the language of statements; null: the reader's language (x-lang)" }),
  updatedAt: Nullable(DateTime),
});
export type ReportingSettings = Static<typeof ReportingSettings>;

/** PUT /portal/v1/settings/reporting: the fields sent change, the others stay. */
export const ReportingSettingsInput = Type.Object(
  {
    reportingCurrency: Type.Optional(AssetSymbol),
    language: Type.Optional(Nullable(ReportLanguage)),
  },
  { additionalProperties: false },
);
export type ReportingSettingsInput = Static<typeof ReportingSettingsInput>;

export const PricePathKind = Type.Union([Type.Literal('same'), Type.Literal('direct'), Type.Literal('inverse'), Type.Literal('none')], {
  description:
    'how the asset was priced: same (it is the reporting currency), direct (pair ASSET/REPORTING), inverse (pair REPORTING/ASSET), none (no price)',
});

export const ValuedBalance = Type.Object({
  assetSymbol: Type.String(),
  assetDecimals: Type.Integer(),
  totalMinor: SumString,
  valueMinor: Nullable(SumString, { description: 'estimated value in minimum units of the reporting currency, truncated; null: no price' }),
  pricedBy: PricePathKind,
});
export type ValuedBalance = Static<typeof ValuedBalance>;

/** GET /api/v1/valuation: each balance (available + held) and its estimated value in the reporting currency. */
export const Valuation = Type.Object({
  reportingCurrency: Nullable(Type.String()),
  reportingDecimals: Nullable(Type.Integer()),
  estimate: Type.Literal(true),
  rounding: Type.Literal('truncate', { description: 'each value is truncated to the reporting currency decimals' }),
  balances: Type.Array(ValuedBalance),
  totalValueMinor: Nullable(SumString, { description: 'the sum of the priced values; null without a reporting currency' }),
  unpriced: Type.Array(Type.String(), { description: 'assets with no price, left out of the total' }),
  pricedAt: DateTime,
});
export type Valuation = Static<typeof Valuation>;

export const BalanceHistoryQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366, default: 30, description: 'how many days, today included' })) },
  { additionalProperties: false },
);
export type BalanceHistoryQuery = Static<typeof BalanceHistoryQuery>;

export const BalanceHistory = Type.Object({
  from: Type.String({ description: 'the first day, YYYY-MM-DD (UTC)' }),
  to: Type.String({ description: 'the last day, today, YYYY-MM-DD (UTC)' }),
  assets: Type.Array(
    Type.Object({
      assetSymbol: Type.String(),
      assetDecimals: Type.Integer(),
      points: Type.Array(
        Type.Object(
          { date: Type.String(), closingMinor: SignedSumString },
          { description: 'the total (available + held) at the end of that day' },
        ),
      ),
    }),
  ),
});
export type BalanceHistory = Static<typeof BalanceHistory>;

export const StatementFormat = Type.Union([Type.Literal('csv'), Type.Literal('pdf')]);
export type StatementFormat = Static<typeof StatementFormat>;

export const StatementQuery = Type.Object(
  {
    format: Type.Optional(StatementFormat),
    lang: Type.Optional(ReportLanguage),
  },
  { additionalProperties: false },
);
export type StatementQuery = Static<typeof StatementQuery>;
