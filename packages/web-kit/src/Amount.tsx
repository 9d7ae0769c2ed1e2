import { useContext } from 'react';
import { formatMoney } from './format.ts';
import { WebKitContext } from './kit-context.tsx';

/** An amount in the asset's own decimals, never rounded, grouped, the symbol beside it (UI.md: Money). */
export function Amount({ minor, decimals, symbol }: { minor: bigint; decimals: number; symbol: string }) {
  const lang = useContext(WebKitContext)?.lang ?? 'en';
  return (
    <span className="amount">
      <span className="figure">{formatMoney(minor, decimals, lang)}</span> <span className="symbol">{symbol}</span>
    </span>
  );
}

/** The same for any response object that carries the Money fields. */
export function MoneyText({ money }: { money: { amountMinor: bigint; assetDecimals: number; assetSymbol: string } }) {
  return <Amount minor={money.amountMinor} decimals={money.assetDecimals} symbol={money.assetSymbol} />;
}
