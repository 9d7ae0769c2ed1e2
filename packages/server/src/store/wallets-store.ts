import { DomainError } from '../domain/errors.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import type { DepositWallet } from '../domain/deposits/wallet.ts';
import { recordAudit } from './audit-store.ts';
import type { Db } from './db.ts';

type WalletRow = { asset_symbol: string; network: string; address: string; updated_at: Date };
const toWallet = (r: WalletRow): DepositWallet => ({ assetSymbol: r.asset_symbol, network: r.network, address: r.address, updatedAt: r.updated_at });
const auditWallet = (w: WalletRow | undefined) => (w ? { network: w.network, address: w.address } : null);

/** The platform's deposit wallet per asset. No row: the platform cannot receive that asset. */
export class WalletsStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  /** Wallets of listed assets only, by symbol. */
  async list(): Promise<DepositWallet[]> {
    const rows = await this.db.selectFrom('deposit_wallets as w')
      .innerJoin('market_assets as m', 'm.symbol', 'w.asset_symbol')
      .select(['w.asset_symbol', 'w.network', 'w.address', 'w.updated_at'])
      .orderBy('w.asset_symbol').execute();
    return rows.map(toWallet);
  }

  /** `source: 'venue'`: the address was read from the CCXT venue and follows it (refreshVenueAddress). */
  async put(actor: string, r: { assetSymbol: string; network: string; address: string; source?: 'operator' | 'venue' }): Promise<DepositWallet> {
    const source = r.source ?? 'operator';
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const asset = await tx.selectFrom('market_assets').select('symbol').where('symbol', '=', r.assetSymbol).executeTakeFirst();
      if (!asset) throw new DomainError('market.asset_not_listed', { asset: r.assetSymbol });
      const cur = await tx.selectFrom('deposit_wallets').selectAll().where('asset_symbol', '=', r.assetSymbol).forUpdate().executeTakeFirst();
      const row = await tx.insertInto('deposit_wallets').values({ asset_symbol: r.assetSymbol, network: r.network, address: r.address, updated_at: at, source })
        .onConflict((oc) => oc.column('asset_symbol').doUpdateSet({ network: r.network, address: r.address, updated_at: at, source }))
        .returningAll().executeTakeFirstOrThrow();
      await recordAudit(tx, this.ids, at, {
        actor, action: 'deposit.wallet.put', subjectType: 'asset', subjectId: r.assetSymbol, before: auditWallet(cur), after: auditWallet(row),
      });
      return toWallet(row);
    });
  }

  /** The wallets whose address is the venue's. */
  async venueWallets(): Promise<Array<{ assetSymbol: string; network: string; address: string }>> {
    const rows = await this.db.selectFrom('deposit_wallets').select(['asset_symbol', 'network', 'address']).where('source', '=', 'venue').execute();
    return rows.map((r) => ({ assetSymbol: r.asset_symbol, network: r.network, address: r.address }));
  }

  /** The venue gave another address for a venue wallet: it replaces the old one (audited), once. */
  async refreshVenueAddress(assetSymbol: string, network: string, address: string): Promise<boolean> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const cur = await tx.selectFrom('deposit_wallets').selectAll().where('asset_symbol', '=', assetSymbol).where('source', '=', 'venue').where('network', '=', network).forUpdate().executeTakeFirst();
      if (!cur || cur.address === address) return false;
      const row = await tx.updateTable('deposit_wallets').set({ address, updated_at: at }).where('asset_symbol', '=', assetSymbol).returningAll().executeTakeFirstOrThrow();
      await recordAudit(tx, this.ids, at, { actor: 'system:venue-wallets', action: 'deposit.wallet.put', subjectType: 'asset', subjectId: assetSymbol, before: auditWallet(cur), after: auditWallet(row) });
      return true;
    });
  }

  /** The asset leaves the wallet list. Open declarations keep the address they were given. */
  async remove(actor: string, assetSymbol: string): Promise<DepositWallet> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.deleteFrom('deposit_wallets').where('asset_symbol', '=', assetSymbol).returningAll().executeTakeFirst();
      if (!row) throw new DomainError('deposits.wallet_not_found', { asset: assetSymbol });
      await recordAudit(tx, this.ids, at, { actor, action: 'deposit.wallet.delete', subjectType: 'asset', subjectId: assetSymbol, before: auditWallet(row), after: null });
      return toWallet(row);
    });
  }
}
