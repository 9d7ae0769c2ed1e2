import type { DepositWallet } from '../domain/deposits/wallet.ts';
import type { Db } from './db.ts';
import type { Tx } from './unit-of-work.ts';
import type { WalletSource, WalletsRepository } from '../usecases/repositories.ts';

export type { WalletSource };

type WalletRow = { asset_symbol: string; network: string; address: string; updated_at: Date };
const toWallet = (r: WalletRow): DepositWallet => ({
  assetSymbol: r.asset_symbol,
  network: r.network,
  address: r.address,
  updatedAt: r.updated_at,
});

/**
 * The platform's deposit wallet per asset. No row: the platform cannot receive that asset. Writes
 * go through the use cases in usecases/wallets/.
 */
export class WalletsStore implements WalletsRepository {
  constructor(private readonly db: Db) {}

  /** Wallets of listed assets only, by symbol. */
  async list(): Promise<DepositWallet[]> {
    const rows = await this.db
      .selectFrom('deposit_wallets as w')
      .innerJoin('market_assets as m', 'm.symbol', 'w.asset_symbol')
      .select(['w.asset_symbol', 'w.network', 'w.address', 'w.updated_at'])
      .orderBy('w.asset_symbol')
      .execute();
    return rows.map(toWallet);
  }

  /** The asset's wallet, locked until `tx` ends; null when it has none. */
  async lockFor(tx: Tx, assetSymbol: string): Promise<DepositWallet | null> {
    const row = await tx.selectFrom('deposit_wallets').selectAll().where('asset_symbol', '=', assetSymbol).forUpdate().executeTakeFirst();
    return row ? toWallet(row) : null;
  }

  /** The asset's wallet as given (inserted or replaced). `source: 'venue'`: its address follows the CCXT venue. */
  async upsert(
    tx: Tx,
    at: Date,
    r: { assetSymbol: string; network: string; address: string; source: WalletSource },
  ): Promise<DepositWallet> {
    const set = { network: r.network, address: r.address, updated_at: at, source: r.source };
    const row = await tx
      .insertInto('deposit_wallets')
      .values({ asset_symbol: r.assetSymbol, ...set })
      .onConflict((oc) => oc.column('asset_symbol').doUpdateSet(set))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toWallet(row);
  }

  /** The wallets whose address is the venue's. */
  async venueWallets(): Promise<Array<{ assetSymbol: string; network: string; address: string }>> {
    const rows = await this.db
      .selectFrom('deposit_wallets')
      .select(['asset_symbol', 'network', 'address'])
      .where('source', '=', 'venue')
      .execute();
    return rows.map((r) => ({ assetSymbol: r.asset_symbol, network: r.network, address: r.address }));
  }

  /** The asset's wallet if it is still the venue's on this network, locked until `tx` ends; else null. */
  async lockVenueWallet(tx: Tx, assetSymbol: string, network: string): Promise<DepositWallet | null> {
    const row = await tx
      .selectFrom('deposit_wallets')
      .selectAll()
      .where('asset_symbol', '=', assetSymbol)
      .where('source', '=', 'venue')
      .where('network', '=', network)
      .forUpdate()
      .executeTakeFirst();
    return row ? toWallet(row) : null;
  }

  async setAddress(tx: Tx, at: Date, assetSymbol: string, address: string): Promise<DepositWallet> {
    const row = await tx
      .updateTable('deposit_wallets')
      .set({ address, updated_at: at })
      .where('asset_symbol', '=', assetSymbol)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toWallet(row);
  }

  /** Deletes the asset's wallet; answers it as it was, or null when it had none. */
  async delete(tx: Tx, assetSymbol: string): Promise<DepositWallet | null> {
    const row = await tx.deleteFrom('deposit_wallets').where('asset_symbol', '=', assetSymbol).returningAll().executeTakeFirst();
    return row ? toWallet(row) : null;
  }
}
