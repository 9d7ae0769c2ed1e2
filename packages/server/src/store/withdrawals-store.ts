import type { WithdrawalState } from '../domain/withdrawals/withdrawal.ts';
import type { Db } from './db.ts';
import { createdWithin, mapPage, readPage, type CreatedWindow, type Page, type PageParams } from './paging.ts';
import type { Tx } from './unit-of-work.ts';
import type { WithdrawalRow, DestinationForRequest, CryptoTarget, WithdrawalsRepository } from '../usecases/repositories.ts';

export type { WithdrawalRow, DestinationForRequest };

type Row = {
  id: string;
  organization_id: string;
  state: string;
  asset_symbol: string;
  asset_decimals: number;
  amount_minor: string;
  destination_id: string;
  reason: string | null;
  payout_reference: string | null;
  txid: string | null;
  created_at: Date;
  updated_at: Date;
};
const toWithdrawal = (r: Row, summary: string): WithdrawalRow => ({
  id: r.id,
  organizationId: r.organization_id,
  state: r.state as WithdrawalState,
  assetSymbol: r.asset_symbol,
  assetDecimals: r.asset_decimals,
  amount: BigInt(r.amount_minor),
  destinationId: r.destination_id,
  destinationSummary: summary,
  reason: r.reason,
  payoutReference: r.payout_reference,
  txid: r.txid,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A withdrawal as the API shows it: its row and its destination's masked summary (`w`, `d`). */
const WITHDRAWAL_COLUMNS = [
  'w.id',
  'w.organization_id',
  'w.state',
  'w.asset_symbol',
  'w.asset_decimals',
  'w.amount_minor',
  'w.destination_id',
  'w.reason',
  'w.payout_reference',
  'w.txid',
  'w.created_at',
  'w.updated_at',
  'd.summary',
] as const;

/** Withdrawal requests: the hold at request, the operator's one decision, the amount leaving. */
export class WithdrawalsStore implements WithdrawalsRepository {
  constructor(private readonly db: Db) {}

  /** What a withdrawal request reads of its destination, in the request's transaction; undefined when there is none. */
  async destinationFor(tx: Tx, id: string): Promise<DestinationForRequest | undefined> {
    const d = await tx
      .selectFrom('withdrawal_destinations')
      .select(['organization_id', 'asset_symbol', 'cooldown_until', 'registered_in_market_at', 'summary', 'state'])
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      d && {
        state: d.state,
        organizationId: d.organization_id,
        assetSymbol: d.asset_symbol,
        cooldownUntil: d.cooldown_until,
        registeredInMarketAt: d.registered_in_market_at,
        summary: d.summary,
      }
    );
  }

  /** The decimals the market lists `assetSymbol` with, in the request's transaction; null when it is not listed. */
  async marketDecimals(tx: Tx, assetSymbol: string): Promise<number | null> {
    const m = await tx.selectFrom('market_assets').select('decimals').where('symbol', '=', assetSymbol).executeTakeFirst();
    return m?.decimals ?? null;
  }

  /** Writes a pending request, its hold `holdId` taken in the same transaction. */
  async insert(tx: Tx, w: WithdrawalRow & { holdId: string }): Promise<void> {
    await tx
      .insertInto('withdrawals')
      .values({
        id: w.id,
        organization_id: w.organizationId,
        destination_id: w.destinationId,
        hold_id: w.holdId,
        state: w.state,
        asset_symbol: w.assetSymbol,
        asset_decimals: w.assetDecimals,
        amount_minor: w.amount.toString(),
        reason: w.reason,
        created_at: w.createdAt,
        updated_at: w.updatedAt,
      })
      .execute();
  }

  /**
   * Newest first; one organization's (client) or all, optionally in one state (operator). The operator's
   * pending ones leave out those that still wait for their organization's members (docs/controls.md).
   */
  async list(
    p: PageParams,
    filter: { organizationId?: string; state?: string | undefined; operator?: boolean } & CreatedWindow = {},
  ): Promise<Page<WithdrawalRow>> {
    let q = createdWithin(this.db.selectFrom('withdrawals as w'), 'w.created_at', filter);
    if (filter.organizationId) q = q.where('w.organization_id', '=', filter.organizationId);
    if (filter.state) q = q.where('w.state', '=', filter.state);
    if (filter.operator && filter.state === 'pending_approval')
      q = q.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('organization_approvals as a')
              .select('a.request_id')
              .whereRef('a.request_id', '=', 'w.id')
              .where('a.kind', '=', 'withdrawals')
              .where('a.waiting_for', '=', 'organization'),
          ),
        ),
      );
    const page = await readPage(
      q,
      'w.seq',
      p,
      (x) => x.innerJoin('withdrawal_destinations as d', 'd.id', 'w.destination_id').select(WITHDRAWAL_COLUMNS),
      filter.organizationId && !filter.state && !filter.createdFrom && !filter.createdTo
        ? { list: 'withdrawals', owner: filter.organizationId }
        : undefined,
    );
    return mapPage(page, (r) => toWithdrawal(r, r.summary));
  }

  /** Whether the withdrawal is this organization's (a cancel of another's is not found, never revealed). */
  async belongsTo(tx: Tx, id: string, organizationId: string): Promise<boolean> {
    return (
      (await tx
        .selectFrom('withdrawals')
        .select('id')
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()) !== undefined
    );
  }

  /** One withdrawal of one organization, with its destination's summary (another organization's: null). */
  async getFor(organizationId: string, id: string): Promise<WithdrawalRow | null> {
    const r = await this.db
      .selectFrom('withdrawals as w')
      .innerJoin('withdrawal_destinations as d', 'd.id', 'w.destination_id')
      .select(WITHDRAWAL_COLUMNS)
      .where('w.id', '=', id)
      .where('w.organization_id', '=', organizationId)
      .executeTakeFirst();
    return r ? toWithdrawal(r, r.summary) : null;
  }

  /**
   * The withdrawal awaiting a decision, its row locked until the caller's transaction ends: approvals of
   * one withdrawal are serialized (four-eyes: two persons on the last approval decide it once). Null when
   * there is none or it is no longer pending_approval (its row still locked: stateIn says which).
   */
  async lockPending(tx: Tx, id: string): Promise<WithdrawalRow | null> {
    const cur = await tx.selectFrom('withdrawals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!cur || cur.state !== 'pending_approval') return null;
    return toWithdrawal(cur, await this.#summary(tx, cur.destination_id));
  }

  /** Only the caller whose UPDATE moves it out of pending_approval decides; every other gets null. */
  async decide(
    tx: Tx,
    id: string,
    state: 'approved' | 'rejected' | 'cancelled',
    reason: string | null,
    at: Date,
  ): Promise<(WithdrawalRow & { holdId: string }) | null> {
    const w = await tx
      .updateTable('withdrawals')
      .set({ state, reason, updated_at: at })
      .where('id', '=', id)
      .where('state', '=', 'pending_approval')
      .returningAll()
      .executeTakeFirst();
    return w ? { ...toWithdrawal(w, await this.#summary(tx, w.destination_id)), holdId: w.hold_id } : null;
  }

  /**
   * approved → `to`, once, in the caller's transaction (the payout recorded, or its failure); null when
   * the withdrawal is not approved, so a second caller finds it settled.
   */
  async settle(
    tx: Tx,
    id: string,
    to: 'completed' | 'failed',
    at: Date,
    set: { payoutReference?: string; reason?: string; txid?: string },
  ): Promise<(WithdrawalRow & { holdId: string }) | null> {
    const w = await tx
      .updateTable('withdrawals')
      .set({
        state: to,
        updated_at: at,
        ...(set.payoutReference !== undefined ? { payout_reference: set.payoutReference } : {}),
        ...(set.reason !== undefined ? { reason: set.reason } : {}),
        ...(set.txid !== undefined ? { txid: set.txid } : {}),
      })
      .where('id', '=', id)
      .where('state', '=', 'approved')
      .returningAll()
      .executeTakeFirst();
    return w ? { ...toWithdrawal(w, await this.#summary(tx, w.destination_id)), holdId: w.hold_id } : null;
  }

  /** The state a withdrawal is in now (null: no such withdrawal), for the answer to a caller who lost a race. */
  async stateIn(tx: Tx, id: string): Promise<WithdrawalState | null> {
    const cur = await tx.selectFrom('withdrawals').select('state').where('id', '=', id).executeTakeFirst();
    return (cur?.state as WithdrawalState | undefined) ?? null;
  }

  async setTxid(tx: Tx, id: string, txid: string): Promise<string> {
    await tx.updateTable('withdrawals').set({ txid }).where('id', '=', id).execute();
    return txid;
  }

  async cryptoTarget(id: string): Promise<CryptoTarget | null> {
    const r = await this.db
      .selectFrom('withdrawals as w')
      .innerJoin('withdrawal_destinations as d', 'd.id', 'w.destination_id')
      .select(['w.id', 'w.state', 'w.asset_symbol', 'w.asset_decimals', 'w.amount_minor', 'd.kind', 'd.network', 'd.address', 'd.memo'])
      .where('w.id', '=', id)
      .executeTakeFirst();
    if (!r || r.kind !== 'crypto' || r.network === null || r.address === null) return null;
    return {
      withdrawalId: r.id,
      state: r.state as WithdrawalState,
      assetSymbol: r.asset_symbol,
      assetDecimals: r.asset_decimals,
      amount: BigInt(r.amount_minor),
      network: r.network,
      address: r.address,
      memo: r.memo,
    };
  }

  async approvedCrypto(limit = 100): Promise<string[]> {
    const rows = await this.db
      .selectFrom('withdrawals as w')
      .innerJoin('withdrawal_destinations as d', 'd.id', 'w.destination_id')
      .select('w.id')
      .where('w.state', '=', 'approved')
      .where('d.kind', '=', 'crypto')
      .orderBy('w.seq')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  async #summary(tx: Tx, destinationId: string): Promise<string> {
    const d = await tx.selectFrom('withdrawal_destinations').select('summary').where('id', '=', destinationId).executeTakeFirstOrThrow();
    return d.summary;
  }
}
