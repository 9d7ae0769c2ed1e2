import type { Selectable } from 'kysely';
import type { Declaration, DeclarationState } from '../domain/deposits/declaration.ts';
import type { Clock } from '../domain/ports.ts';
import type { Db } from './db.ts';
import type { Database } from './schema.ts';
import type { Tx } from './unit-of-work.ts';
import type { DeclarationsRepository, NewDeclaration } from '../usecases/repositories.ts';

export type { NewDeclaration };

type DeclarationRow = Selectable<Database['deposit_declarations']>;

export const toDeclaration = (r: DeclarationRow): Declaration => ({
  id: r.id,
  organizationId: r.organization_id,
  reference: r.reference,
  assetSymbol: r.asset_symbol,
  assetDecimals: r.asset_decimals,
  declaredAmount: BigInt(r.declared_amount_minor),
  expectedAmount: BigInt(r.expected_amount_minor),
  network: r.network,
  address: r.address,
  state: r.state as DeclarationState,
  expiresAt: r.expires_at,
  depositId: r.deposit_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * Closes open declarations whose time has passed. SKIP LOCKED: a row another transaction is
 * matching or expiring right now is left to it, so this never waits and never deadlocks.
 * `scope`: only those of this organization or of this asset (a declaration about to be made).
 */
async function expireDue(tx: Tx, now: Date, scope: { organizationId?: string; assetSymbol?: string } = {}): Promise<number> {
  const r = await tx
    .updateTable('deposit_declarations')
    .set({ state: 'expired', updated_at: now })
    .where('id', 'in', (eb) => {
      let q = eb.selectFrom('deposit_declarations').select('id').where('state', '=', 'open').where('expires_at', '<=', now);
      const { organizationId, assetSymbol } = scope;
      if (organizationId !== undefined && assetSymbol !== undefined) {
        q = q.where((w) => w.or([w('organization_id', '=', organizationId), w('asset_symbol', '=', assetSymbol)]));
      }
      return q.limit(1000).forUpdate().skipLocked();
    })
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Deposit declarations: at most one open per organization, and no two open with the same (asset, expected amount). */
export class DeclarationsStore implements DeclarationsRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * The decimals the market lists `assetSymbol` with (null: not listed). FOR SHARE: they cannot change
   * until the caller's transaction ends (MarketAssetsStore.put).
   */
  async lockedDecimals(tx: Tx, assetSymbol: string): Promise<number | null> {
    const asset = await tx.selectFrom('market_assets').select('decimals').where('symbol', '=', assetSymbol).forShare().executeTakeFirst();
    return asset?.decimals ?? null;
  }

  /** Where the platform receives `assetSymbol`; null when it receives none. */
  async walletOf(tx: Tx, assetSymbol: string): Promise<{ network: string; address: string } | null> {
    return (
      (await tx.selectFrom('deposit_wallets').select(['network', 'address']).where('asset_symbol', '=', assetSymbol).executeTakeFirst()) ??
      null
    );
  }

  /** Closes the declarations past their expiry at `now` (all, or `scope`'s: see expireDue). Returns how many. */
  expireDue(tx: Tx, now: Date, scope?: { organizationId: string; assetSymbol: string }): Promise<number> {
    return expireDue(tx, now, scope);
  }

  /** Whether the organization has an open declaration, as the caller's transaction sees it (READ COMMITTED sees a concurrent winner). */
  async hasOpen(tx: Tx, organizationId: string): Promise<boolean> {
    return (
      (await tx
        .selectFrom('deposit_declarations')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('state', '=', 'open')
        .executeTakeFirst()) !== undefined
    );
  }

  /**
   * The expected amounts of `assetSymbol` between `lo` and `hi` that are taken: those of open declarations,
   * and of closed ones whose expiry is after `quarantineStart`.
   */
  async amountsTaken(tx: Tx, assetSymbol: string, lo: bigint, hi: bigint, quarantineStart: Date): Promise<bigint[]> {
    const used = await tx
      .selectFrom('deposit_declarations')
      .select('expected_amount_minor')
      .where('asset_symbol', '=', assetSymbol)
      .where((w) => w.or([w('state', '=', 'open'), w('expires_at', '>', quarantineStart)]))
      .where('expected_amount_minor', '>=', lo.toString())
      .where('expected_amount_minor', '<=', hi.toString())
      .execute();
    return used.map((u) => BigInt(u.expected_amount_minor));
  }

  /**
   * Writes an open declaration, or nothing when one of the two partial unique indexes refuses it
   * (`declarations_one_open_per_org`, `declarations_unique_open_amount`): null. ON CONFLICT DO NOTHING
   * turns a collision into "no row" without aborting the transaction, on PostgreSQL and PGlite alike.
   */
  async insertOpen(tx: Tx, n: NewDeclaration): Promise<Declaration | null> {
    const row = await tx
      .insertInto('deposit_declarations')
      .values({
        id: n.id,
        organization_id: n.organizationId,
        reference: n.reference,
        asset_symbol: n.assetSymbol,
        asset_decimals: n.assetDecimals,
        declared_amount_minor: n.declaredAmount.toString(),
        expected_amount_minor: n.expectedAmount.toString(),
        network: n.network,
        address: n.address,
        state: 'open',
        expires_at: n.expiresAt,
        deposit_id: null,
        created_at: n.at,
        updated_at: n.at,
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ? toDeclaration(row) : null;
  }

  /** The organization's open declaration, if it has not expired (read against the clock, not the background task). */
  async open(organizationId: string): Promise<Declaration | null> {
    const r = await this.db
      .selectFrom('deposit_declarations')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('state', '=', 'open')
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return r ? toDeclaration(r) : null;
  }

  /** One declaration of one organization, locked for a change of state (another organization's: null). */
  async lockFor(tx: Tx, organizationId: string, id: string): Promise<Declaration | null> {
    const r = await tx
      .selectFrom('deposit_declarations')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .forUpdate()
      .executeTakeFirst();
    return r ? toDeclaration(r) : null;
  }

  /** An open declaration becomes cancelled; its event is written by the table's trigger, as for expiry. */
  async cancel(tx: Tx, id: string, at: Date): Promise<Declaration> {
    const r = await tx
      .updateTable('deposit_declarations')
      .set({ state: 'cancelled', updated_at: at })
      .where('id', '=', id)
      .where('state', '=', 'open')
      .returningAll()
      .executeTakeFirstOrThrow();
    return toDeclaration(r);
  }
}
