import { csvCell, csvRecord, type Lang } from '@cambio/contract';
import { closingMoment, type Statement } from './reads.ts';
import { kindWords, localDateTime, localFigure, word } from './statement-words.ts';

/**
 * A statement as CSV (RFC 4180, CRLF): a header row in the organization's language, the opening balance,
 * one record per entry with its running balance, the closing balance. Each amount twice: as the language
 * writes it ungrouped (`-1234,50` in es, which a spreadsheet in Spanish reads as a number), and as the
 * exact integer of minimum units, the same in every language.
 */
export function statementCsv(s: Statement, lang: Lang): string {
  const d = s.asset.decimals;
  const figure = (m: bigint) => localFigure(m, d, lang, false);
  // A figure is a number, never a formula: written as it is (a leading minus is its sign), quoted when it holds a comma.
  const amountCell = (m: bigint) => {
    const t = figure(m);
    return t.includes(',') ? `"${t}"` : t;
  };
  const row = (cells: Array<string | null>, amount: bigint | null, balance: bigint) =>
    `${[
      ...cells.map(csvCell),
      amount === null ? '' : amountCell(amount),
      amountCell(balance),
      amount === null ? '' : amount.toString(),
      balance.toString(),
    ].join(',')}\r\n`;
  const closingAt = closingMoment(s);
  return [
    csvRecord([
      word(lang, 'date'),
      word(lang, 'description'),
      word(lang, 'reference'),
      word(lang, 'entry'),
      word(lang, 'amount'),
      word(lang, 'balance'),
      word(lang, 'amountMinor'),
      word(lang, 'balanceMinor'),
    ]),
    row([localDateTime(s.month.from, lang), word(lang, 'opening'), null, null], null, s.body.opening),
    ...s.body.lines.map((l) =>
      row([localDateTime(l.at, lang), kindWords(lang, l.kind), l.referenceId ?? l.memo, l.entryId], l.amount, l.balance),
    ),
    row([localDateTime(closingAt, lang), word(lang, 'closing'), null, null], null, s.body.closing),
  ].join('');
}
