/**
 * Lossless JSON for responses. The spec lets a server write amounts as JSON integers, which
 * JSON.parse rounds above 2^53. A pre-pass quotes every integer token outside strings that is not a
 * safe integer, so JSON.parse keeps its exact digits; `toAmounts` then turns amount fields into bigint.
 */
export function parseJsonLossless(text: string): unknown {
  return JSON.parse(quoteLargeIntegers(text));
}

/** `{"a": 123456789012345678901}` → `{"a": "123456789012345678901"}`; strings and other numbers untouched. */
export function quoteLargeIntegers(text: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i += 2;
        else if (d === 0x22) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i++;
      while (i < n && /[0-9eE.+-]/.test(text[i]!)) i++;
      const token = text.slice(start, i);
      if (/^-?[0-9]+$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(from, start)}"${token}"`;
        from = i;
      }
      continue;
    }
    i++;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Request bodies: bigint amounts travel as digit strings (the spec's walkthrough form). */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Field names that carry an amount in minimum units: `amountMinor`, `heldMinor`, `rateQuoteMinor`, … */
export const isAmountField = (key: string) => key.endsWith('Minor');

/**
 * Converts every amount field (name ending in `Minor`) to bigint, at any depth. A digit string or an
 * integer JSON number is accepted; null stays null. Anything else is a response the SDK cannot trust.
 */
export function toAmounts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toAmounts);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isAmountField(k) ? toBigIntAmount(k, v) : toAmounts(v);
  }
  return out;
}

export class AmountFormatError extends Error {
  constructor(
    readonly field: string,
    readonly value: unknown,
  ) {
    super(`response field ${field} is not an integer amount: ${JSON.stringify(String(value))}`);
    this.name = 'AmountFormatError';
  }
}

function toBigIntAmount(field: string, v: unknown): unknown {
  if (v === null || v === undefined) return v;
  if (typeof v === 'string' && /^-?[0-9]{1,80}$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  // Objects keyed by asset (limits: {"BTC": {"maxOrderMinor": …}}) never end in Minor; anything else is wrong.
  throw new AmountFormatError(field, v);
}

/** Type of a parsed response: every `…Minor` field is a bigint instead of its wire string. */
export type Amounts<T> = T extends readonly (infer U)[]
  ? Amounts<U>[]
  : T extends object
    ? { [K in keyof T]: K extends `${string}Minor` ? MinorOf<T[K]> : Amounts<T[K]> }
    : T;
type MinorOf<V> = V extends string | number | bigint ? bigint : V;
