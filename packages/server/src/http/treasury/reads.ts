import type { BalanceHistory, ReportingSettings, Valuation } from '@cambio/contract';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { dailyClosings, historyWindow } from '../../domain/treasury/balance-history.ts';
import { pricePath } from '../../domain/treasury/price-path.ts';
import { parseMonth, runningBalance, type StatementBody, type StatementMonth } from '../../domain/treasury/statement.ts';
import { valueAll, type PricePath } from '../../domain/treasury/valuation.ts';

type Deps = Pick<AppDeps, 'store' | 'venue' | 'clock'>;

/** The currency reports use when none was chosen: USD when the market lists it (docs/api-guide.md). */
const DEFAULT_REPORTING = 'USD';

/** The organization's reporting choice as read: the default currency when none was chosen. */
export async function readReporting(d: Pick<Deps, 'store'>, organizationId: string): Promise<ReportingSettings> {
  const [choice, listed] = await Promise.all([d.store.treasury.reporting(organizationId), d.store.marketAssets.decimalsBySymbol()]);
  const chosen = choice?.reportingCurrency ?? null;
  return {
    reportingCurrency: chosen ?? (listed.has(DEFAULT_REPORTING) ? DEFAULT_REPORTING : null),
    chosen: chosen !== null,
    language: choice?.language ?? null,
    updatedAt: choice?.updatedAt?.toISOString() ?? null,
  };
}

/** Each balance (available + held) and its estimate in the reporting currency, priced as quotes are now. */
export async function readValuation(d: Deps, organizationId: string): Promise<Valuation> {
  const [settings, listed, rows] = await Promise.all([
    readReporting(d, organizationId),
    d.store.marketAssets.decimalsBySymbol(),
    d.store.accounts.balances(organizationId),
  ]);
  const assets = rows.map((b) => ({ assetSymbol: b.assetSymbol, assetDecimals: b.assetDecimals, totalMinor: b.available + b.held }));
  const currency = settings.reportingCurrency;
  const decimals = currency === null ? undefined : listed.get(currency);
  const pricedAt = d.clock.now().toISOString();
  if (currency === null || decimals === undefined) {
    return {
      reportingCurrency: null,
      reportingDecimals: null,
      estimate: true,
      rounding: 'truncate',
      balances: assets.map((a) => ({ ...a, totalMinor: a.totalMinor.toString(), valueMinor: null, pricedBy: 'none' as const })),
      totalValueMinor: null,
      unpriced: assets.filter((a) => a.totalMinor !== 0n).map((a) => a.assetSymbol),
      pricedAt,
    };
  }
  // Read from the market before anything else: a venue's book may be a network call (no transaction here).
  // Each asset's path is independent of the others: asked at once, a page waits for the slowest book only.
  const held = assets.filter((a) => a.totalMinor !== 0n);
  const found = await Promise.all(held.map((a) => pricePath(d.venue, a.assetSymbol, currency)));
  const paths = new Map<string, PricePath>(held.map((a, i) => [a.assetSymbol, found[i]!]));
  const v = valueAll(assets, decimals, paths);
  return {
    reportingCurrency: currency,
    reportingDecimals: decimals,
    estimate: true,
    rounding: 'truncate',
    balances: v.rows.map((r) => ({
      assetSymbol: r.assetSymbol,
      assetDecimals: r.assetDecimals,
      totalMinor: r.totalMinor.toString(),
      valueMinor: r.valueMinor === null ? null : r.valueMinor.toString(),
      pricedBy: r.path,
    })),
    totalValueMinor: v.totalMinor.toString(),
    unpriced: v.unpriced,
    pricedAt,
  };
}

/** The daily closing total of every asset the organization holds or held, over the last `days` days. */
export async function readHistory(d: Pick<Deps, 'store' | 'clock'>, organizationId: string, days: number): Promise<BalanceHistory> {
  const { from, dates } = historyWindow(d.clock.now(), days);
  const [rows, before, moved] = await Promise.all([
    d.store.accounts.balances(organizationId),
    d.store.treasury.totalsBefore(organizationId, from),
    d.store.treasury.movedPerDay(organizationId, from),
  ]);
  return {
    from: dates[0]!,
    to: dates[dates.length - 1]!,
    assets: rows.map((b) => ({
      assetSymbol: b.assetSymbol,
      assetDecimals: b.assetDecimals,
      points: dailyClosings(dates, before.get(b.assetSymbol) ?? 0n, moved.get(b.assetSymbol) ?? new Map()).map((p) => ({
        date: p.date,
        closingMinor: p.closing.toString(),
      })),
    })),
  };
}

export interface Statement {
  organization: { id: string; name: string };
  asset: { symbol: string; decimals: number };
  month: StatementMonth;
  body: StatementBody;
  generatedAt: Date;
  /** False for the current month: the statement runs to the moment it was made. */
  complete: boolean;
}

/** One asset's statement of one month; a malformed or future month and an unlisted asset are refused. */
export async function readStatement(
  d: Pick<Deps, 'store' | 'clock'>,
  organizationId: string,
  assetSymbol: string,
  monthText: string,
): Promise<Statement> {
  const now = d.clock.now();
  const month = parseMonth(monthText, now);
  const asset = await d.store.marketAssets.get(assetSymbol);
  if (!asset) throw new DomainError('market.asset_not_listed', { asset: assetSymbol.slice(0, 20) });
  const org = await d.store.organizations.get(organizationId);
  if (!org) throw new DomainError('organizations.not_found');
  const [before, entries] = await Promise.all([
    d.store.treasury.totalsBefore(organizationId, month.from, assetSymbol),
    d.store.treasury.entriesBetween(organizationId, assetSymbol, month.from, month.to),
  ]);
  return {
    organization: { id: org.id, name: org.name },
    asset: { symbol: asset.symbol, decimals: asset.decimals },
    month,
    body: runningBalance(before.get(assetSymbol) ?? 0n, entries),
    generatedAt: now,
    complete: month.to.getTime() <= now.getTime(),
  };
}

/** When the closing balance stands: the month's last second, or the moment a current month's statement was made. */
export const closingMoment = (s: Statement): Date => (s.complete ? new Date(s.month.to.getTime() - 1000) : s.generatedAt);
