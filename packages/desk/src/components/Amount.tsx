import { formatGrouped } from '../lib/money.ts';

/** An amount in the asset's own decimals, never rounded, the symbol beside it. */
export function Amount({ minor, decimals, symbol }: { minor: bigint; decimals: number; symbol: string }) {
  return <span className="amount"><span className="figure">{formatGrouped(minor, decimals)}</span> <span className="symbol">{symbol}</span></span>;
}

export function MoneyText({ money }: { money: { amountMinor: bigint; assetDecimals: number; assetSymbol: string } }) {
  return <Amount minor={money.amountMinor} decimals={money.assetDecimals} symbol={money.assetSymbol} />;
}
