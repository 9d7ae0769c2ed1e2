import { formatMinor, parseDecimal } from '../../lib/money.ts';

/** Limits as the server stores them: per asset symbol, caps in minor units; a cap left out is not capped. */
export type Limits = Record<string, { maxOrderMinor?: bigint | null; maxWithdrawalMinor?: bigint | null }>;
/** The same as decimal text per asset for a form. */
export type LimitsText = Record<string, { maxOrder: string; maxWithdrawal: string }>;

export function limitsToText(limits: Limits | null, decimals: (s: string) => number | null): LimitsText {
  const out: LimitsText = {};
  for (const [sym, caps] of Object.entries(limits ?? {})) {
    const d = decimals(sym) ?? 0;
    out[sym] = {
      maxOrder: caps.maxOrderMinor != null ? formatMinor(caps.maxOrderMinor, d) : '',
      maxWithdrawal: caps.maxWithdrawalMinor != null ? formatMinor(caps.maxWithdrawalMinor, d) : '',
    };
  }
  return out;
}

/** Decimal text → caps; an empty box is "no cap". Throws a RangeError naming the asset for bad text. */
export function textToLimits(text: LimitsText, decimals: (s: string) => number | null): Limits {
  const out: Limits = {};
  for (const [sym, t] of Object.entries(text)) {
    const d = decimals(sym);
    if (d === null) throw new RangeError(`${sym} is not listed at the market`);
    const caps: Limits[string] = {};
    try {
      if (t.maxOrder.trim()) caps.maxOrderMinor = parseDecimal(t.maxOrder, d);
      if (t.maxWithdrawal.trim()) caps.maxWithdrawalMinor = parseDecimal(t.maxWithdrawal, d);
    } catch {
      throw new RangeError(`${sym}: write each cap as digits with at most ${d} decimals`);
    }
    out[sym] = caps;
  }
  return out;
}
