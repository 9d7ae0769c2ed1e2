import { csvRecord } from '@cambio/contract';
import { formatMinor, type Deposit, type Order, type Withdrawal } from '@cambio/sdk';

/**
 * The portal's lists as CSV files for accountants, written in the browser from the same records the
 * tables show: one record per row, oldest first, like the ledger's export. Every amount is there twice:
 * `…Amount`, the exact decimal in the asset's units (formatMinor of the minimum units, every decimal,
 * never a float) and `…AmountMinor`, the integer of minimum units as the API sent it.
 */
export function csvFile<T>(
  columns: readonly string[],
  cells: (row: T) => Array<string | number | null>,
  newestFirst: readonly T[],
): string {
  return (
    csvRecord([...columns]) +
    [...newestFirst]
      .reverse()
      .map((r) => csvRecord(cells(r)))
      .join('')
  );
}

const money = (m: { assetSymbol: string; assetDecimals: number; amountMinor: bigint }) => [
  m.assetSymbol,
  m.assetDecimals,
  formatMinor(m.amountMinor, m.assetDecimals),
  m.amountMinor.toString(),
];

export const ORDER_CSV_COLUMNS = [
  'createdAt',
  'id',
  'state',
  'baseAssetSymbol',
  'baseAssetDecimals',
  'baseAmount',
  'baseAmountMinor',
  'quoteAssetSymbol',
  'quoteAssetDecimals',
  'quoteAmount',
  'quoteAmountMinor',
  'rate',
  'quoteId',
  'reason',
  'updatedAt',
] as const;
/** `rate`: quote units per one whole base unit, in the quote asset's decimals. */
export const orderCells = (o: Order) => [
  o.createdAt,
  o.id,
  o.state,
  ...money(o.base),
  ...money(o.quote),
  formatMinor(o.rateQuoteMinor, o.quote.assetDecimals),
  o.quoteId,
  o.reason,
  o.updatedAt,
];

export const WITHDRAWAL_CSV_COLUMNS = [
  'createdAt',
  'id',
  'state',
  'assetSymbol',
  'assetDecimals',
  'amount',
  'amountMinor',
  'destinationId',
  'destinationSummary',
  'reason',
  'updatedAt',
] as const;
export const withdrawalCells = (w: Withdrawal) => [
  w.createdAt,
  w.id,
  w.state,
  ...money(w.money),
  w.destinationId,
  w.destinationSummary,
  w.reason,
  w.updatedAt,
];

export const DEPOSIT_CSV_COLUMNS = [
  'createdAt',
  'id',
  'state',
  'assetSymbol',
  'assetDecimals',
  'amount',
  'amountMinor',
  'network',
  'txid',
  'declarationId',
  'updatedAt',
] as const;
export const depositCells = (d: Deposit) => [
  d.createdAt,
  d.id,
  d.state,
  ...money(d.money),
  d.network,
  d.txid,
  d.declarationId,
  d.updatedAt,
];
