import { DomainError } from '../errors.ts';

/**
 * A monthly statement of one asset (docs/api-guide.md, Statements). Months are calendar months in UTC.
 * The balance is the organization's total (available + held): a hold or its release moves money
 * between the two and leaves the total as it was, so only entries that change the total are lines.
 */
export interface StatementMonth {
  /** `2026-01` */
  text: string;
  /** First moment of the month (inclusive). */
  from: Date;
  /** First moment of the next month (exclusive). */
  to: Date;
}

const MONTH = /^([0-9]{4})-(0[1-9]|1[0-2])$/;

/** `YYYY-MM`, not after the month of `now`; anything else is refused with its own code. */
export function parseMonth(text: string, now: Date): StatementMonth {
  const m = MONTH.exec(text);
  if (!m) throw new DomainError('statements.month_malformed', { month: text.slice(0, 20) });
  const year = Number(m[1]);
  const month = Number(m[2]);
  const from = new Date(Date.UTC(year, month - 1, 1));
  if (from.getTime() > now.getTime()) throw new DomainError('statements.month_in_future', { month: text });
  return { text, from, to: new Date(Date.UTC(year, month, 1)) };
}

/** One journal entry as it moved the organization's total in the asset. */
export interface StatementEntry {
  at: Date;
  entryId: string;
  kind: string;
  referenceId: string | null;
  memo: string | null;
  /** Signed, in minimum units: the sum of the entry's postings on the organization's accounts. */
  amount: bigint;
}

export interface StatementLine extends StatementEntry {
  /** The total after this entry. */
  balance: bigint;
}

export interface StatementBody {
  opening: bigint;
  lines: StatementLine[];
  closing: bigint;
}

/** Opening, each entry with its running balance, closing: closing = opening + Σ amounts, by construction. */
export function runningBalance(opening: bigint, entries: readonly StatementEntry[]): StatementBody {
  let balance = opening;
  const lines = entries.map((e) => {
    balance += e.amount;
    return { ...e, balance };
  });
  return { opening, lines, closing: balance };
}
