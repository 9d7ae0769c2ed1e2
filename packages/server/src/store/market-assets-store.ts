import { sql } from 'kysely';
import type { Db } from './db.ts';
import type { Tx } from './unit-of-work.ts';
import type { MarketAsset, MarketAssetsRepository } from '../usecases/repositories.ts';

export type { MarketAsset };

const asset = (r: { symbol: string; decimals: number; kind: string | null }): MarketAsset => ({
  symbol: r.symbol,
  decimals: r.decimals,
  kind: r.kind === 'fiat' || r.kind === 'crypto' ? r.kind : null,
});

/** The listed assets and their decimals. Writes go through usecases/market/put-asset.ts. */
export class MarketAssetsStore implements MarketAssetsRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<MarketAsset[]> {
    return (await this.db.selectFrom('market_assets').select(['symbol', 'decimals', 'kind']).orderBy('symbol').execute()).map(asset);
  }

  async decimalsBySymbol(): Promise<Map<string, number>> {
    return new Map(
      (await this.db.selectFrom('market_assets').select(['symbol', 'decimals', 'kind']).execute()).map((a) => [a.symbol, a.decimals]),
    );
  }

  async get(symbol: string): Promise<MarketAsset | null> {
    const r = await this.db
      .selectFrom('market_assets')
      .select(['symbol', 'decimals', 'kind'])
      .where('symbol', '=', symbol)
      .executeTakeFirst();
    return r ? asset(r) : null;
  }

  /** Whether the asset is listed, read in `tx` without a lock. */
  async isListed(tx: Tx, symbol: string): Promise<boolean> {
    return (await tx.selectFrom('market_assets').select('symbol').where('symbol', '=', symbol).executeTakeFirst()) !== undefined;
  }

  /**
   * The asset, locked until `tx` ends (FOR UPDATE): a declaration or an arrival reads the decimals FOR
   * SHARE, so it either commits before a change of decimals or waits and reads the new ones.
   */
  async lock(tx: Tx, symbol: string): Promise<MarketAsset | null> {
    const row = await tx
      .selectFrom('market_assets')
      .select(['symbol', 'decimals', 'kind'])
      .where('symbol', '=', symbol)
      .forUpdate()
      .executeTakeFirst();
    return row ? asset(row) : null;
  }

  async upsert(tx: Tx, at: Date, symbol: string, decimals: number, kind: 'fiat' | 'crypto' | null): Promise<void> {
    await tx
      .insertInto('market_assets')
      .values({ symbol, decimals, kind, updated_at: at })
      .onConflict((oc) => oc.column('symbol').doUpdateSet({ decimals, kind, updated_at: at }))
      .execute();
  }

  /** Whether an open declaration, a live quote, or a pending order or withdrawal carries the asset's decimals at `now`. */
  async carriesDecimals(tx: Tx, symbol: string, now: Date): Promise<boolean> {
    const checks = [
      () =>
        tx
          .selectFrom('deposit_declarations')
          .select('id')
          .where('asset_symbol', '=', symbol)
          .where('state', '=', 'open')
          .where('expires_at', '>', now)
          .limit(1)
          .executeTakeFirst(),
      () =>
        tx
          .selectFrom('quotes')
          .select('id')
          .where((w) => w.or([w('base_symbol', '=', symbol), w('quote_symbol', '=', symbol)]))
          .where('consumed_at', 'is', null)
          .where('expires_at', '>', now)
          .limit(1)
          .executeTakeFirst(),
      () =>
        tx
          .selectFrom('orders')
          .select('id')
          .where((w) => w.or([w('base_symbol', '=', symbol), w('quote_symbol', '=', symbol)]))
          .where('state', 'in', PENDING)
          .limit(1)
          .executeTakeFirst(),
      () =>
        tx
          .selectFrom('withdrawals')
          .select('id')
          .where('asset_symbol', '=', symbol)
          .where('state', 'in', PENDING)
          .limit(1)
          .executeTakeFirst(),
    ];
    // One after another: a transaction is one connection.
    for (const check of checks) if (await check()) return true;
    return false;
  }

  /** Whether any account holds a non-zero balance of the asset. */
  async isHeld(tx: Tx, symbol: string): Promise<boolean> {
    const used = await tx
      .selectFrom('accounts')
      .select('owner_id')
      .where('asset_symbol', '=', symbol)
      .where(sql<boolean>`balance <> 0`)
      .limit(1)
      .executeTakeFirst();
    return used !== undefined;
  }
}

/** Pending states: the request is not final yet and its amounts still count in the asset's decimals. */
const PENDING = ['pending_approval', 'approved'];
