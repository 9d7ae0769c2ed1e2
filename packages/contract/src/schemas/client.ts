import { Type, type Static } from '@sinclair/typebox';
import { AssetSymbol, CreatedRange, DateTime, ListQuery, Money, Nullable, SignedAmountString } from './common.ts';

export const ClientStatus = Type.Union([Type.Literal('draft'), Type.Literal('active'), Type.Literal('suspended')]);
export type ClientStatus = Static<typeof ClientStatus>;

/** One asset's caps on the organization (docs/operator-guide.md `limits`); a cap that is null is not capped. */
export const ClientLimit = Type.Object({
  assetSymbol: Type.String(),
  assetDecimals: Nullable(Type.Integer({ description: "the market's decimals of the asset; null when the market does not list it" })),
  maxOrderMinor: Nullable(Type.String({ pattern: '^[0-9]{1,78}$', description: 'the largest base amount of one order in this asset' })),
  maxWithdrawalMinor: Nullable(Type.String({ pattern: '^[0-9]{1,78}$', description: 'the largest single withdrawal of this asset' })),
});
export type ClientLimit = Static<typeof ClientLimit>;

export const Client = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: ClientStatus,
  canOperate: Type.Boolean(),
  permissions: Type.Array(Type.String()),
  // Added to the spec's Client, so a client stops guessing amount bounds; the spec's fields are unchanged.
  limits: Nullable(Type.Array(ClientLimit), {
    description:
      "the organization's limits: null when none are loaded (it cannot operate); otherwise one row per capped asset, and an asset not listed here is not capped",
  }),
});
export type Client = Static<typeof Client>;

/** A balance row: Money whose amountMinor is the available amount, plus what is held and the total. */
export const Balance = Type.Composite([
  Money,
  Type.Object({
    heldMinor: Type.String({ pattern: '^[0-9]{1,78}$' }),
    totalMinor: Type.String({ pattern: '^[0-9]{1,79}$' }),
  }),
]);
export type Balance = Static<typeof Balance>;

/** One movement of one of the organization's accounts. */
export const LedgerEntry = Type.Object({
  id: Type.String({ description: 'posting id' }),
  entryId: Type.String({ description: 'journal entry this movement belongs to; all its postings sum to zero' }),
  kind: Type.String({
    description:
      'what moved the money: adjustment, order_hold, order_settlement, order_release, deposit, deposit_attribution (an arrival credited by hand), withdrawal_hold, withdrawal_settlement, withdrawal_release, reversal',
  }),
  account: Type.Union([Type.Literal('available'), Type.Literal('held')]),
  assetSymbol: Type.String(),
  assetDecimals: Type.Integer(),
  amountMinor: SignedAmountString,
  referenceId: Nullable(Type.String()),
  memo: Nullable(Type.String()),
  createdAt: DateTime,
  logIndex: Nullable(
    Type.Integer({
      minimum: 0,
      description: "its entry's leaf index in the journal log (GET /transparency/checkpoint); null until logged",
    }),
  ),
});
export type LedgerEntry = Static<typeof LedgerEntry>;

/** The ledger: one asset, a creation window. */
export const LedgerQuery = ListQuery({ assetSymbol: Type.Optional(AssetSymbol), ...CreatedRange });

/** GET /api/v1/ledger.csv: the ledger list's filters, no paging (the file is the whole filtered ledger). */
export const LedgerCsvQuery = Type.Object({ assetSymbol: Type.Optional(AssetSymbol), ...CreatedRange }, { additionalProperties: false });
export type LedgerCsvQuery = Static<typeof LedgerCsvQuery>;

/** The columns of GET /api/v1/ledger.csv, in order: the ledger entry's fields, plus `amount` in the asset's units. */
export const LEDGER_CSV_COLUMNS = [
  'createdAt',
  'id',
  'entryId',
  'kind',
  'account',
  'assetSymbol',
  'assetDecimals',
  'amount',
  'amountMinor',
  'referenceId',
  'memo',
] as const;
