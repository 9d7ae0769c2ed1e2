import { Type, type Static } from '@sinclair/typebox';
import { AssetSymbol, CreatedRange, DateTime, ListQuery, Money, Nullable, SignedAmountString } from './common.ts';

export const ClientStatus = Type.Union([Type.Literal('draft'), Type.Literal('active'), Type.Literal('suspended')]);
export type ClientStatus = Static<typeof ClientStatus>;

export const Client = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: ClientStatus,
  canOperate: Type.Boolean(),
  permissions: Type.Array(Type.String()),
});
export type Client = Static<typeof Client>;

/** A balance row: Money whose amountMinor is the available amount, plus what is held and the total. */
export const Balance = Type.Composite([Money, Type.Object({
  heldMinor: Type.String({ pattern: '^[0-9]{1,78}$' }),
  totalMinor: Type.String({ pattern: '^[0-9]{1,79}$' }),
})]);
export type Balance = Static<typeof Balance>;

/** One movement of one of the organization's accounts. */
export const LedgerEntry = Type.Object({
  id: Type.String({ description: 'posting id' }),
  entryId: Type.String({ description: 'journal entry this movement belongs to; all its postings sum to zero' }),
  kind: Type.String({ description: 'what moved the money: adjustment, order_hold, order_settlement, order_release, deposit, deposit_attribution (an arrival credited by hand), withdrawal_hold, withdrawal_settlement, withdrawal_release, reversal' }),
  account: Type.Union([Type.Literal('available'), Type.Literal('held')]),
  assetSymbol: Type.String(),
  assetDecimals: Type.Integer(),
  amountMinor: SignedAmountString,
  referenceId: Nullable(Type.String()),
  memo: Nullable(Type.String()),
  createdAt: DateTime,
});
export type LedgerEntry = Static<typeof LedgerEntry>;

/** The ledger: one asset, a creation window. */
export const LedgerQuery = ListQuery({ assetSymbol: Type.Optional(AssetSymbol), ...CreatedRange });
