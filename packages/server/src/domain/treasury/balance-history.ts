/**
 * The daily closing balance of each asset over the last days (docs/api-guide.md, Balance history),
 * from the ledger: the total before the window, then each day's movements added in order. Days are
 * calendar days in UTC; today's closing is the balance so far.
 */
export const HISTORY_DAYS_MAX = 366;

const DAY_MS = 86_400_000;

/** The `days` calendar days ending with today's (UTC), oldest first, as `YYYY-MM-DD`, and the first one's start. */
export function historyWindow(now: Date, days: number): { from: Date; dates: string[] } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = today - (days - 1) * DAY_MS;
  const dates = Array.from({ length: days }, (_, i) => new Date(first + i * DAY_MS).toISOString().slice(0, 10));
  return { from: new Date(first), dates };
}

/** Closing balance per date: `opening` plus every day's movement up to and including that date. */
export function dailyClosings(
  dates: readonly string[],
  opening: bigint,
  movedOn: ReadonlyMap<string, bigint>,
): Array<{ date: string; closing: bigint }> {
  let balance = opening;
  return dates.map((date) => {
    balance += movedOn.get(date) ?? 0n;
    return { date, closing: balance };
  });
}
