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

  /**
   * Lists an asset. Its decimals cannot change while anything carries the old ones: an amount would
   * change meaning by a factor of ten per decimal. `market.decimals_in_use` while an open declaration
   * (its expected amount), an unexpired unconsumed quote, a pending order (either side) or a pending
   * withdrawal refers to the asset; `market.decimals_locked` once any account holds it.
   */
  async put(actor: string, symbol: string, decimals: number): Promise<MarketAsset> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      // FOR UPDATE: a declaration or an arrival reads the decimals FOR SHARE, so it either commits
      // before this change (and is seen below) or waits and reads the new decimals.
      const cur = await tx.selectFrom('market_assets').select(['symbol', 'decimals']).where('symbol', '=', symbol).forUpdate().executeTakeFirst();
      if (cur && cur.decimals === decimals) return cur;
      if (cur) {
        if (await carriesDecimals(tx, symbol, at)) throw new DomainError('market.decimals_in_use', { asset: symbol });
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

/** Pending states: the request is not final yet and its amounts still count in the asset's decimals. */
const PENDING = ['pending_approval', 'approved'];

/** Whether an open declaration, a live quote, or a pending order or withdrawal carries the asset's decimals. */
async function carriesDecimals(tx: Db, symbol: string, now: Date): Promise<boolean> {
  const checks = [
    () => tx.selectFrom('deposit_declarations').select('id').where('asset_symbol', '=', symbol).where('state', '=', 'open').where('expires_at', '>', now).limit(1).executeTakeFirst(),
    () => tx.selectFrom('quotes').select('id').where((w) => w.or([w('base_symbol', '=', symbol), w('quote_symbol', '=', symbol)]))
      .where('consumed_at', 'is', null).where('expires_at', '>', now).limit(1).executeTakeFirst(),
    () => tx.selectFrom('orders').select('id').where((w) => w.or([w('base_symbol', '=', symbol), w('quote_symbol', '=', symbol)]))
      .where('state', 'in', PENDING).limit(1).executeTakeFirst(),
    () => tx.selectFrom('withdrawals').select('id').where('asset_symbol', '=', symbol).where('state', 'in', PENDING).limit(1).executeTakeFirst(),
  ];
  // One after another: a transaction is one connection.
  for (const check of checks) if (await check()) return true;
  return false;
}
