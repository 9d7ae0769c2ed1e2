import type { Lang } from '@cambio/contract';
import { formatDecimal } from '../../domain/money.ts';

/**
 * A statement's words, dates and figures in the organization's language (docs/api-guide.md, Statements).
 * Figures are the exact decimal text of the minimum units with the language's marks, never a number;
 * times are UTC, written as the language writes a date.
 */
const WORDS = {
  en: {
    title: 'Statement of account',
    organization: 'Organization',
    asset: 'Asset',
    period: 'Period',
    generated: 'Generated',
    toDate: 'Current month: entries to the moment this statement was made.',
    opening: 'Opening balance',
    closing: 'Closing balance',
    date: 'Date (UTC)',
    description: 'Description',
    reference: 'Reference',
    entry: 'Entry',
    amount: 'Amount',
    balance: 'Balance',
    amountMinor: 'Amount (minimum units)',
    balanceMinor: 'Balance (minimum units)',
    none: 'No entries in this month.',
    page: 'Page',
    exact: 'Amounts are exact, in the asset\u2019s own decimals. Holds for pending requests stay in the balance and are not listed.',
  },
  es: {
    title: 'Estado de cuenta',
    organization: 'Organización',
    asset: 'Activo',
    period: 'Período',
    generated: 'Emitido',
    toDate: 'Mes en curso: movimientos hasta el momento en que se emitió este estado de cuenta.',
    opening: 'Saldo inicial',
    closing: 'Saldo final',
    date: 'Fecha (UTC)',
    description: 'Concepto',
    reference: 'Referencia',
    entry: 'Asiento',
    amount: 'Importe',
    balance: 'Saldo',
    amountMinor: 'Importe (unidades mínimas)',
    balanceMinor: 'Saldo (unidades mínimas)',
    none: 'Sin movimientos en este mes.',
    page: 'Página',
    exact:
      'Los importes son exactos, con los decimales del activo. Las retenciones de solicitudes pendientes siguen en el saldo y no se listan.',
  },
} as const;

export type StatementWord = keyof (typeof WORDS)['en'];
export const word = (lang: Lang, w: StatementWord): string => WORDS[lang][w];

const KINDS: Record<Lang, Record<string, string>> = {
  en: {
    adjustment: 'Adjustment',
    order_settlement: 'Order settled',
    deposit: 'Deposit',
    deposit_attribution: 'Deposit credited by hand',
    withdrawal_settlement: 'Withdrawal paid',
    reversal: 'Reversal',
    order_hold: 'Order hold',
    order_release: 'Order hold released',
    withdrawal_hold: 'Withdrawal hold',
    withdrawal_release: 'Withdrawal hold released',
  },
  es: {
    adjustment: 'Ajuste',
    order_settlement: 'Orden liquidada',
    deposit: 'Depósito',
    deposit_attribution: 'Depósito acreditado a mano',
    withdrawal_settlement: 'Retiro pagado',
    reversal: 'Reversión',
    order_hold: 'Retención por orden',
    order_release: 'Retención de orden liberada',
    withdrawal_hold: 'Retención por retiro',
    withdrawal_release: 'Retención de retiro liberada',
  },
};

/** An entry's kind in words; a kind without words (a new one) as it is stored. */
export const kindWords = (lang: Lang, kind: string): string => KINDS[lang][kind] ?? kind;

const MARKS: Record<Lang, { group: string; decimal: string }> = { en: { group: ',', decimal: '.' }, es: { group: '.', decimal: ',' } };

/**
 * Minimum units as the language writes the figure, every decimal kept: en `-1,234.50`, es `-1.234,50`.
 * `grouped: false` leaves the thousands ungrouped (`-1234,50`): what a spreadsheet in that language reads
 * as a number. Spanish groups a whole part of five digits or more (`1234,50`, `12.345,60`), as Intl does.
 */
export function localFigure(minor: bigint, decimals: number, lang: Lang, grouped = true): string {
  const text = formatDecimal(minor, decimals);
  const neg = text.startsWith('-');
  const [whole = '', frac] = (neg ? text.slice(1) : text).split('.');
  const { group, decimal } = MARKS[lang];
  const groupIt = grouped && !(lang === 'es' && whole.length === 4);
  const w = groupIt ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, group) : whole;
  return `${neg ? '-' : ''}${w}${frac !== undefined ? `${decimal}${frac}` : ''}`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A moment in UTC: en `01/31/2026 23:59:07`, es `31/01/2026 23:59:07`. */
export function localDateTime(at: Date, lang: Lang): string {
  const day = two(at.getUTCDate());
  const month = two(at.getUTCMonth() + 1);
  const date = lang === 'es' ? `${day}/${month}/${at.getUTCFullYear()}` : `${month}/${day}/${at.getUTCFullYear()}`;
  return `${date} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
}

const MONTHS: Record<Lang, string[]> = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
};

/** `2026-01` → en `January 2026`, es `enero de 2026`. */
export function monthWords(from: Date, lang: Lang): string {
  const name = MONTHS[lang][from.getUTCMonth()]!;
  return lang === 'es' ? `${name} de ${from.getUTCFullYear()}` : `${name} ${from.getUTCFullYear()}`;
}
