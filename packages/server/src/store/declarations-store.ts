import type { Selectable } from 'kysely';
import type { Declaration, DeclarationState } from '../domain/deposits/declaration.ts';
import { newReference } from '../domain/deposits/reference.ts';
import { pickTail, tailPlan, type RandomBelow, cryptoRandomBelow, TAIL_QUARANTINE_MS } from '../domain/deposits/tail.ts';
import { DomainError } from '../domain/errors.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import type { Db } from './db.ts';
import type { Database } from './schema.ts';
import type { Tx } from './unit-of-work.ts';
import { assertReconciled } from './platform-state-store.ts';

type DeclarationRow = Selectable<Database['deposit_declarations']>;

export const toDeclaration = (r: DeclarationRow): Declaration => ({
  id: r.id, organizationId: r.organization_id, reference: r.reference, assetSymbol: r.asset_symbol, assetDecimals: r.asset_decimals,
  declaredAmount: BigInt(r.declared_amount_minor), expectedAmount: BigInt(r.expected_amount_minor), network: r.network, address: r.address,
  state: r.state as DeclarationState, expiresAt: r.expires_at, depositId: r.deposit_id, createdAt: r.created_at, updatedAt: r.updated_at,
});

/**
 * A tail can still collide with a declaration inserted by a concurrent transaction (invisible until it
 * commits); each collision is retried with another free tail, at most this many times in all.
 */
const MAX_ATTEMPTS = 16;

/**
 * Closes open declarations whose time has passed. SKIP LOCKED: a row another transaction is
 * matching or expiring right now is left to it, so this never waits and never deadlocks.
 */
async function expireDue(tx: Db, now: Date, scope: { organizationId?: string; assetSymbol?: string } = {}): Promise<number> {
  const r = await tx.updateTable('deposit_declarations').set({ state: 'expired', updated_at: now })
    .where('id', 'in', (eb) => {
      let q = eb.selectFrom('deposit_declarations').select('id')
        .where('state', '=', 'open').where('expires_at', '<=', now);
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
export class DeclarationsStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock, private readonly random: RandomBelow = cryptoRandomBelow) {}

  /**
   * Declares a deposit. The two partial unique indexes decide under any concurrency:
   * `declarations_one_open_per_org` (409 deposits.declaration_already_open) and
   * `declarations_unique_open_amount` (another tail is tried). ON CONFLICT DO NOTHING turns a
   * collision into "no row" without aborting the transaction, on PostgreSQL and PGlite alike.
   * A tail never gives the amount of an open declaration, nor of one (matched or not) whose expiry is
   * less than TAIL_QUARANTINE_MS ago; a band with none free is 503 deposits.no_unique_amount.
   */
  async declare(organizationId: string, r: { assetSymbol: string; assetDecimals: number; declaredAmount: bigint; ttlMs: number }): Promise<Declaration> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + r.ttlMs);
    return this.db.transaction().execute(async (tx) => {
      await assertReconciled(tx);
      // FOR SHARE: the decimals cannot change until this declaration is committed (MarketAssetsStore.put).
      const asset = await tx.selectFrom('market_assets').select('decimals').where('symbol', '=', r.assetSymbol).forShare().executeTakeFirst();
      if (!asset) throw new DomainError('deposits.asset_not_receivable', { asset: r.assetSymbol });
      // CONTRACT §6: a factor error is caught, never guessed.
      if (asset.decimals !== r.assetDecimals) {
        throw new DomainError('market.decimals_mismatch', { asset: r.assetSymbol, sent: String(r.assetDecimals), expected: String(asset.decimals) });
      }
      const wallet = await tx.selectFrom('deposit_wallets').select(['network', 'address']).where('asset_symbol', '=', r.assetSymbol).executeTakeFirst();
      if (!wallet) throw new DomainError('deposits.asset_not_receivable', { asset: r.assetSymbol });
      const plan = tailPlan(asset.decimals, r.declaredAmount, r.assetSymbol);

      // Expiry is exact even when the background task has not run yet: a stale declaration of this
      // organization must not block it, nor a stale one of this asset hold an amount.
      await expireDue(tx, now, { organizationId, assetSymbol: r.assetSymbol });
      const open = await tx.selectFrom('deposit_declarations').select('id').where('organization_id', '=', organizationId).where('state', '=', 'open').executeTakeFirst();
      if (open) throw new DomainError('deposits.declaration_already_open');

      const quarantineStart = new Date(now.getTime() - TAIL_QUARANTINE_MS);
      const lo = r.declaredAmount + plan.min;
      const hi = r.declaredAmount + plan.max;
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        // Taken: the amounts of open declarations, and of closed ones still in quarantine, so a late
        // transfer for a closed declaration never matches whoever drew the same amount next.
        const used = await tx.selectFrom('deposit_declarations').select('expected_amount_minor')
          .where('asset_symbol', '=', r.assetSymbol)
          .where((w) => w.or([w('state', '=', 'open'), w('expires_at', '>', quarantineStart)]))
          .where('expected_amount_minor', '>=', lo.toString()).where('expected_amount_minor', '<=', hi.toString()).execute();
        const tail = pickTail(plan, new Set(used.map((u) => BigInt(u.expected_amount_minor) - r.declaredAmount)), this.random);
        if (tail === null) break;
        const row = await tx.insertInto('deposit_declarations').values({
          id: this.ids.next('dcl'), organization_id: organizationId, reference: newReference(), asset_symbol: r.assetSymbol,
          asset_decimals: asset.decimals, declared_amount_minor: r.declaredAmount.toString(),
          expected_amount_minor: (r.declaredAmount + tail).toString(), network: wallet.network, address: wallet.address,
          state: 'open', expires_at: expiresAt, deposit_id: null, created_at: now, updated_at: now,
        }).onConflict((oc) => oc.doNothing()).returningAll().executeTakeFirst();
        if (row) return toDeclaration(row);
        // No row: one of the two indexes refused it. Which one is read now (READ COMMITTED sees the winner).
        const mine = await tx.selectFrom('deposit_declarations').select('id').where('organization_id', '=', organizationId).where('state', '=', 'open').executeTakeFirst();
        if (mine) throw new DomainError('deposits.declaration_already_open');
      }
      throw new DomainError('deposits.no_unique_amount');
    });
  }

  /** The organization's open declaration, if it has not expired (read against the clock, not the background task). */
  async open(organizationId: string): Promise<Declaration | null> {
    const r = await this.db.selectFrom('deposit_declarations').selectAll()
      .where('organization_id', '=', organizationId).where('state', '=', 'open').where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return r ? toDeclaration(r) : null;
  }

  /** One declaration of one organization, locked for a change of state (another organization's: null). */
  async lockFor(tx: Tx, organizationId: string, id: string): Promise<Declaration | null> {
    const r = await tx.selectFrom('deposit_declarations').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).forUpdate().executeTakeFirst();
    return r ? toDeclaration(r) : null;
  }

  /** An open declaration becomes cancelled; its event is written by the table's trigger, as for expiry. */
  async cancel(tx: Tx, id: string, at: Date): Promise<Declaration> {
    const r = await tx.updateTable('deposit_declarations').set({ state: 'cancelled', updated_at: at })
      .where('id', '=', id).where('state', '=', 'open').returningAll().executeTakeFirstOrThrow();
    return toDeclaration(r);
  }

  /** Closes every declaration past its expiry (the background task). Returns how many. */
  async expireDue(): Promise<number> {
    return expireDue(this.db, this.clock.now());
  }
}
