/**
 * CSV as RFC 4180 writes it, for files a person opens in a spreadsheet (the server's ledger export, the
 * portal's list exports): a field with a comma, a double quote, CR or LF is quoted and its quotes
 * doubled; records end with CRLF.
 *
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with = + - @ (or
 * a tab or CR, which some read past) as a formula, so such a text cell gets a leading apostrophe and
 * is shown as text. Only a cell that is exactly a decimal number (a signed amount such as -0.5) is
 * left as is: a spreadsheet reads it as the number it is, never as a formula.
 */
const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const DECIMAL_NUMBER = /^-?[0-9]+(\.[0-9]+)?$/;

export function csvCell(value: string | number | null): string {
  let s = value === null ? '' : String(value);
  if (FORMULA_START.test(s) && !DECIMAL_NUMBER.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvRecord = (cells: Array<string | number | null>): string => `${cells.map(csvCell).join(',')}\r\n`;
