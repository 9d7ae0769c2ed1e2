import { Amount } from './Amount.tsx';
import { DataTable } from './DataTable.tsx';

export interface ValuedBalance {
  assetSymbol: string;
  assetDecimals: number;
  totalMinor: bigint;
  valueMinor: bigint | null;
}

/**
 * Each asset's total and its estimated value in the reporting currency, exact figures from the server; an
 * asset without a price says so. The portal and the desk show the same table (docs/api-guide.md, Valuation).
 */
export function ValuationTable({
  rows,
  currency,
  currencyDecimals,
  texts,
}: {
  rows: ValuedBalance[];
  currency: string;
  currencyDecimals: number;
  texts: { caption: string; asset: string; balance: string; value: string; noPrice: string };
}) {
  return (
    <DataTable
      caption={texts.caption}
      rows={rows}
      rowKey={(b) => b.assetSymbol}
      columns={[
        { label: texts.asset, rowHeader: true, cell: (b) => b.assetSymbol },
        { label: texts.balance, num: true, cell: (b) => <Amount minor={b.totalMinor} decimals={b.assetDecimals} symbol={b.assetSymbol} /> },
        {
          label: texts.value,
          num: true,
          cell: (b) =>
            b.valueMinor === null ? texts.noPrice : <Amount minor={b.valueMinor} decimals={currencyDecimals} symbol={currency} />,
        },
      ]}
    />
  );
}
