import { sql } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import { recordAudit } from './audit-store.ts';
import type { Db } from './db.ts';

export interface MarketAsset { symbol: string; decimals: number }

export class MarketAssetsStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  async list(): Promise<MarketAsset[]> {
    return this.db.selectFrom('market_assets').select(['symbol', 'decimals']).orderBy('symbol').execute();
  }

  async get(symbol: string): Promise<MarketAsset | null> {
    return (await this.db.selectFrom('market_assets').select(['symbol', 'decimals']).where('symbol', '=', symbol).executeTakeFirst()) ?? null;
  }

  /** Lists an asset. Its decimals cannot change once any account holds it: every stored amount would change meaning. */
  async put(actor: string, symbol: string, decimals: number): Promise<MarketAsset> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const cur = await tx.selectFrom('market_assets').select(['symbol', 'decimals']).where('symbol', '=', symbol).forUpdate().executeTakeFirst();
      if (cur && cur.decimals === decimals) return cur;
      if (cur) {
        const used = await tx.selectFrom('accounts').select('owner_id').where('asset_symbol', '=', symbol).where(sql<boolean>`balance <> 0`).limit(1).executeTakeFirst();
        if (used) throw new DomainError('market.decimals_locked');
      }
      await tx.insertInto('market_assets').values({ symbol, decimals, updated_at: at })
        .onConflict((oc) => oc.column('symbol').doUpdateSet({ decimals, updated_at: at })).execute();
      await recordAudit(tx, this.ids, at, { actor, action: 'market.asset.put', subjectType: 'asset', subjectId: symbol, before: cur ?? null, after: { symbol, decimals } });
      return { symbol, decimals };
    });
  }
}
