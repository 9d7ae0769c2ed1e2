import { sql } from 'kysely';
import type { StatementEntry } from '../domain/treasury/statement.ts';
import type { Db } from './db.ts';
import type { Tx } from './unit-of-work.ts';
import type { ReportingChoice, ReportingRepository } from '../usecases/repositories.ts';

/**
 * The treasury's reads of the ledger (docs/api-guide.md, Valuation and statements): totals before a
 * moment, an asset's entries in a window, each day's movement; and the organization's reporting choice.
 * The organization's total in an asset is the sum of its postings on both of its accounts.
 */
export class TreasuryStore implements ReportingRepository {
  constructor(private readonly db: Db) {}

  async reporting(organizationId: string): Promise<ReportingChoice | null> {
    const r = await this.db
      .selectFrom('organization_reporting')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return r
      ? { reportingCurrency: r.reporting_currency, language: r.language as ReportingChoice['language'], updatedAt: r.updated_at }
      : null;
  }

  /** The row locked for a change (null when none was chosen yet). */
  async lockReporting(tx: Tx, organizationId: string): Promise<ReportingChoice | null> {
    const r = await tx
      .selectFrom('organization_reporting')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .forUpdate()
      .executeTakeFirst();
    return r
      ? { reportingCurrency: r.reporting_currency, language: r.language as ReportingChoice['language'], updatedAt: r.updated_at }
      : null;
  }

  async saveReporting(tx: Tx, organizationId: string, c: ReportingChoice, by: string): Promise<void> {
    const row = { reporting_currency: c.reportingCurrency, language: c.language, updated_at: c.updatedAt!, updated_by: by };
    await tx
      .insertInto('organization_reporting')
      .values({ organization_id: organizationId, ...row })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet(row))
      .execute();
  }

  /** The organization's total per asset from every posting before `at` (an asset it never held is absent). */
  async totalsBefore(organizationId: string, at: Date, assetSymbol?: string): Promise<Map<string, bigint>> {
    let q = this.db
      .selectFrom('postings')
      .select(['asset_symbol', sql<string>`sum(amount)::text`.as('total')])
      .where('owner_id', '=', organizationId)
      .where('created_at', '<', at);
    if (assetSymbol) q = q.where('asset_symbol', '=', assetSymbol);
    const rows = await q.groupBy('asset_symbol').execute();
    return new Map(rows.map((r) => [r.asset_symbol, BigInt(r.total)]));
  }

  /**
   * The entries of [from, to) that changed the organization's total in the asset, in the order they were
   * written: each entry's postings on the organization's accounts summed (a hold or a release sums to 0).
   */
  async entriesBetween(organizationId: string, assetSymbol: string, from: Date, to: Date): Promise<StatementEntry[]> {
    const rows = await this.db
      .selectFrom('postings')
      .select([
        'entry_id',
        'entry_kind',
        'reference_id',
        'memo',
        sql<Date>`min(created_at)`.as('at'),
        sql<string>`sum(amount)::text`.as('amount'),
        sql<string>`min(id)::text`.as('first'),
      ])
      .where('owner_id', '=', organizationId)
      .where('asset_symbol', '=', assetSymbol)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy(['entry_id', 'entry_kind', 'reference_id', 'memo'])
      .having(sql<boolean>`sum(amount) <> 0`)
      .orderBy(sql`min(id)`)
      .execute();
    return rows.map((r) => ({
      at: new Date(r.at),
      entryId: r.entry_id,
      kind: r.entry_kind,
      referenceId: r.reference_id,
      memo: r.memo,
      amount: BigInt(r.amount),
    }));
  }

  /** What moved the organization's total per asset and UTC day from `from` on: asset → (YYYY-MM-DD → amount). */
  async movedPerDay(organizationId: string, from: Date): Promise<Map<string, Map<string, bigint>>> {
    const day = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;
    const rows = await this.db
      .selectFrom('postings')
      .select(['asset_symbol', day.as('day'), sql<string>`sum(amount)::text`.as('amount')])
      .where('owner_id', '=', organizationId)
      .where('created_at', '>=', from)
      .groupBy(['asset_symbol', day])
      .execute();
    const out = new Map<string, Map<string, bigint>>();
    for (const r of rows) {
      let by = out.get(r.asset_symbol);
      if (!by) out.set(r.asset_symbol, (by = new Map()));
      by.set(r.day, BigInt(r.amount));
    }
    return out;
  }
}
