/** One asset of a reconciliation: what the books say the platform holds at the market, and what the market says. */
export interface Figure {
  assetSymbol: string;
  books: bigint;
  market: bigint;
  difference: bigint;
  matched: boolean;
}

/**
 * Compares per asset over the union of both sides; an asset missing on one side counts as zero there.
 * Exact equality: a difference of one minor unit is a mismatch (money nobody can explain).
 */
export function compareHoldings(
  books: ReadonlyMap<string, bigint>,
  market: ReadonlyMap<string, bigint>,
): { matched: boolean; figures: Figure[] } {
  const assets = [...new Set([...books.keys(), ...market.keys()])].sort();
  const figures = assets.map((assetSymbol) => {
    const b = books.get(assetSymbol) ?? 0n;
    const m = market.get(assetSymbol) ?? 0n;
    return { assetSymbol, books: b, market: m, difference: m - b, matched: m === b };
  });
  return { matched: figures.every((f) => f.matched), figures };
}

/** The given market balances as a map; an asset listed twice is refused (which one would be true?). */
export function marketBalancesOf(
  list: ReadonlyArray<{ assetSymbol: string; amount: bigint }>,
): Map<string, bigint> | { duplicate: string } {
  const m = new Map<string, bigint>();
  for (const x of list) {
    if (m.has(x.assetSymbol)) return { duplicate: x.assetSymbol };
    m.set(x.assetSymbol, x.amount);
  }
  return m;
}

/** A figure as it is kept (a run's record, an audit entry): amounts as decimal strings of minor units. */
export type StoredFigure = { assetSymbol: string; booksMinor: string; marketMinor: string; differenceMinor: string; matched: boolean };
export const figureToJson = (f: Figure): StoredFigure => ({
  assetSymbol: f.assetSymbol,
  booksMinor: f.books.toString(),
  marketMinor: f.market.toString(),
  differenceMinor: f.difference.toString(),
  matched: f.matched,
});
