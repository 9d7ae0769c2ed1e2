import type { Lang } from '@cambio/contract';
import { typedAmount as typed } from '@cambio/web-kit/money';
import { ENGLISH_AMOUNT_WORDS, readAmount, type AmountWords } from '../../lib/money.ts';

/** Limits as the server stores them: per asset symbol, caps in minor units; a cap left out is not capped. */
export type Limits = Record<string, { maxOrderMinor?: bigint | null; maxWithdrawalMinor?: bigint | null }>;
/** The same as decimal text per asset for a form. */
export type LimitsText = Record<string, { maxOrder: string; maxWithdrawal: string }>;

export function limitsToText(limits: Limits | null, decimals: (s: string) => number | null, lang: Lang = 'en'): LimitsText {
  const out: LimitsText = {};
  for (const [sym, caps] of Object.entries(limits ?? {})) {
    const d = decimals(sym) ?? 0;
    out[sym] = {
      maxOrder: caps.maxOrderMinor != null ? typed(caps.maxOrderMinor, d, lang) : '',
      maxWithdrawal: caps.maxWithdrawalMinor != null ? typed(caps.maxWithdrawalMinor, d, lang) : '',
    };
  }
  return out;
}

/** Decimal text in the person's language → caps; an empty box is "no cap". Throws a RangeError naming the asset for bad text. */
export function textToLimits(text: LimitsText, decimals: (s: string) => number | null, words: AmountWords = ENGLISH_AMOUNT_WORDS): Limits {
  const out: Limits = {};
  for (const [sym, t] of Object.entries(text)) {
    const d = decimals(sym);
    if (d === null) throw new RangeError(`${sym} is not listed at the market`);
    const caps: Limits[string] = {};
    for (const [field, key] of [
      ['maxOrder', 'maxOrderMinor'],
      ['maxWithdrawal', 'maxWithdrawalMinor'],
    ] as const) {
      if (!t[field].trim()) continue;
      const r = readAmount(t[field], d, words);
      if (!r.ok) throw new RangeError(`${sym}: ${r.error}`);
      caps[key] = r.minor;
    }
    out[sym] = caps;
  }
  return out;
}
