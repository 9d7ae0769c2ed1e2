import type { Lang } from '@cambio/contract';
import { formatMinor } from '@cambio/sdk';

/**
 * One way to show figures and times per language in both apps (docs/design/people-and-apps.md): the separators and the
 * date pattern are those `Intl` uses for the language (`es`: 1.234,56 and 26/11/2026, 13:45), while the
 * digits of an amount stay the SDK's exact text: `Intl` is asked only for its symbols, never given the
 * amount, so nothing passes through a JS number.
 */
const separatorCache = new Map<Lang, { group: string; decimal: string; groupsFour: boolean }>();

function separators(lang: Lang): { group: string; decimal: string; groupsFour: boolean } {
  let s = separatorCache.get(lang);
  if (!s) {
    // Sample figures only, to learn the symbols and whether a 4-digit whole part is grouped (Spanish
    // groups from 5 digits: 1234,56 but 12.345,60, exactly as Intl.NumberFormat('es') writes them).
    const parts = new Intl.NumberFormat(lang).formatToParts(12345.5);
    const four = new Intl.NumberFormat(lang).formatToParts(1234);
    s = {
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      groupsFour: four.some((p) => p.type === 'group'),
    };
    separatorCache.set(lang, s);
  }
  return s;
}

/** Exact decimal text (`-1234567.50`) in the language's separators: `1,234,567.50` in en, `1.234.567,50` in es. */
export function localDigits(decimalText: string, lang: Lang): string {
  const { group, decimal, groupsFour } = separators(lang);
  const neg = decimalText.startsWith('-');
  const [whole = '', frac] = (neg ? decimalText.slice(1) : decimalText).split('.');
  const grouped = whole.length === 4 && !groupsFour ? whole : whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${neg ? '-' : ''}${grouped}${frac !== undefined ? `${decimal}${frac}` : ''}`;
}

/** Minor units with every decimal of the asset, in the language's separators. */
export function formatMoney(amountMinor: bigint, decimals: number, lang: Lang): string {
  return localDigits(formatMinor(amountMinor, decimals), lang);
}

const DATE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' };

/** A moment in the person's time zone, the language's one pattern (en 11/26/2026, 01:45 PM; es 26/11/2026, 13:45). */
export function formatDateTime(iso: string | Date, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, DATE_TIME).format(typeof iso === 'string' ? new Date(iso) : iso);
}

/** A day only, the same pattern (es 26/11/2026). */
export function formatDate(iso: string | Date, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    typeof iso === 'string' ? new Date(iso) : iso,
  );
}

/** A time of day, the same pattern (es 13:45:07). */
export function formatTime(at: number | Date, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(at);
}

let currencies: Set<string> | null = null;

/**
 * Whether an asset symbol is a national currency (ISO 4217, as `Intl` knows them), so money in it moves
 * by bank transfer, not on a chain: its deposits show bank details and a reference to quote, and a bank
 * destination is for it.
 */
export function isFiat(symbol: string): boolean {
  currencies ??= new Set(
    typeof Intl.supportedValuesOf === 'function'
      ? Intl.supportedValuesOf('currency')
      : ['USD', 'EUR', 'ARS', 'MXN', 'BRL', 'CLP', 'COP', 'PEN', 'GBP'],
  );
  return currencies.has(symbol.toUpperCase());
}
