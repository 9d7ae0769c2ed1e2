import { formatMoney } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';

interface Point {
  date: string;
  closingMinor: bigint;
}

/**
 * A small line chart of one asset's daily closing balance, with a title and a description for screen
 * readers (the exact figures are in the table beside it). Heights are computed from the exact bigint values
 * scaled to 0–1000 in bigint; only the drawing is rounded.
 */
export function BalanceChart({ symbol, decimals, points }: { symbol: string; decimals: number; points: Point[] }) {
  const { t, lang } = usePortal();
  const W = 600;
  const H = 160;
  const values = points.map((p) => p.closingMinor);
  const max = values.reduce((a, b) => (b > a ? b : a), 0n);
  const min = values.reduce((a, b) => (b < a ? b : a), values[0] ?? 0n);
  const span = max - min === 0n ? 1n : max - min;
  const y = (v: bigint) => H - 10 - (Number(((v - min) * 1000n) / span) * (H - 20)) / 1000;
  const x = (i: number) => (points.length <= 1 ? W / 2 : 10 + (i * (W - 20)) / (points.length - 1));
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i)},${y(p.closingMinor)}`).join(' ');
  const last = points.at(-1);
  return (
    <svg
      role="img"
      aria-labelledby={`chart-${symbol}-t chart-${symbol}-d`}
      viewBox={`0 0 ${W} ${H}`}
      className="balance-chart"
      width="100%"
    >
      <title id={`chart-${symbol}-t`}>{t('history.chartTitle', { asset: symbol })}</title>
      <desc id={`chart-${symbol}-d`}>
        {t('history.chartDesc', {
          from: points[0]?.date ?? '',
          to: last?.date ?? '',
          amount: last ? `${formatMoney(last.closingMinor, decimals, lang)} ${symbol}` : '',
        })}
      </desc>
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
