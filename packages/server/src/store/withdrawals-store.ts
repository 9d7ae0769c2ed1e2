import { sql, type Transaction } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import type { Organization } from '../domain/organizations/organization.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import { checkWithdrawal, withdrawalSettlementEntry, type WithdrawalState } from '../domain/withdrawals/withdrawal.ts';
import type { Approver } from '../domain/approvals/four-eyes.ts';
import { recordApproval } from './approvals-store.ts';
import { recordAudit } from './audit-store.ts';
import type { Db } from './db.ts';
import { captureHold, releaseHold, takeHold } from './holds.ts';
import { postEntry } from './ledger-store.ts';
import { createdWithin, mapPage, readPage, type CreatedWindow, type Page, type PageParams } from './paging.ts';
import { assertReconciled } from './platform-state-store.ts';
import type { Database } from './schema.ts';

type Tx = Transaction<Database>;

export interface WithdrawalRow {
  id: string; organizationId: string; state: WithdrawalState; assetSymbol: string; assetDecimals: number; amount: bigint;
  destinationId: string; destinationSummary: string; reason: string | null; createdAt: Date; updatedAt: Date;
}

type Row = {
  id: string; organization_id: string; state: string; asset_symbol: string; asset_decimals: number; amount_minor: string;
  destination_id: string; reason: string | null; created_at: Date; updated_at: Date;
};
const toWithdrawal = (r: Row, summary: string): WithdrawalRow => ({
  id: r.id, organizationId: r.organization_id, state: r.state as WithdrawalState, assetSymbol: r.asset_symbol,
  assetDecimals: r.asset_decimals, amount: BigInt(r.amount_minor), destinationId: r.destination_id, destinationSummary: summary,
  reason: r.reason, createdAt: r.created_at, updatedAt: r.updated_at,
});

const audited = (w: WithdrawalRow) => ({
  organizationId: w.organizationId, state: w.state, assetSymbol: w.assetSymbol, amountMinor: w.amount.toString(),
  destinationId: w.destinationId, reason: w.reason,
});

/** Withdrawal requests: the hold at request, the operator's one decision, the amount leaving. */
export class WithdrawalsStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  /** The hold is taken in the same transaction that writes the request (CONTRACT §2). */
  async request(org: Organization, r: { destinationId: string; assetSymbol: string; assetDecimals: number; amount: bigint }): Promise<WithdrawalRow> {
    const at = this.clock.now();
    const id = this.ids.next('wdr');
    return this.db.transaction().execute(async (tx) => {
      await assertReconciled(tx);
      const d = await tx.selectFrom('withdrawal_destinations')
        .select(['organization_id', 'asset_symbol', 'cooldown_until', 'registered_in_market_at', 'summary'])
        .where('id', '=', r.destinationId).executeTakeFirst();
      const m = await tx.selectFrom('market_assets').select('decimals').where('symbol', '=', r.assetSymbol).executeTakeFirst();
      checkWithdrawal({
        organizationId: org.id, assetSymbol: r.assetSymbol, assetDecimals: r.assetDecimals, amount: r.amount,
        marketDecimals: m?.decimals ?? null, limits: org.limits, now: at,
        destination: d ? { organizationId: d.organization_id, assetSymbol: d.asset_symbol, cooldownUntil: d.cooldown_until, registeredInMarketAt: d.registered_in_market_at } : null,
      });
      const row = await takeHold(tx, this.ids, at, { organizationId: org.id, assetSymbol: r.assetSymbol, amount: r.amount, kind: 'withdrawal_hold', referenceId: id },
        (holdId) => tx.insertInto('withdrawals').values({
          id, organization_id: org.id, destination_id: r.destinationId, hold_id: holdId, state: 'pending_approval',
          asset_symbol: r.assetSymbol, asset_decimals: r.assetDecimals, amount_minor: r.amount.toString(), reason: null,
          created_at: at, updated_at: at,
        }).returningAll().executeTakeFirstOrThrow());
      return toWithdrawal(row, d!.summary);
    });
  }

  /** Newest first; one organization's (client) or all, optionally in one state (operator). */
  async list(p: PageParams, filter: { organizationId?: string; state?: string | undefined } & CreatedWindow = {}): Promise<Page<WithdrawalRow>> {
    let q = createdWithin(this.db.selectFrom('withdrawals as w'), 'w.created_at', filter);
    if (filter.organizationId) q = q.where('w.organization_id', '=', filter.organizationId);
    if (filter.state) q = q.where('w.state', '=', filter.state);
    const page = await readPage(q, 'w.seq', p, (x) => x.innerJoin('withdrawal_destinations as d', 'd.id', 'w.destination_id')
      .select(['w.id', 'w.organization_id', 'w.state', 'w.asset_symbol', 'w.asset_decimals', 'w.amount_minor', 'w.destination_id', 'w.reason', 'w.created_at', 'w.updated_at', 'd.summary']));
    return mapPage(page, (r) => toWithdrawal(r, r.summary));
  }

  /** Only the caller whose UPDATE moves it out of pending_approval decides; every other gets 409. */
  async #decide(tx: Tx, id: string, state: WithdrawalState, reason: string | null, at: Date): Promise<Row & { hold_id: string }> {
    const w = await tx.updateTable('withdrawals').set({ state, reason, updated_at: at })
      .where('id', '=', id).where('state', '=', 'pending_approval').returningAll().executeTakeFirst();
    if (w) return w;
    const cur = await tx.selectFrom('withdrawals').select('state').where('id', '=', id).executeTakeFirst();
    if (!cur) throw new DomainError('withdrawals.not_found');
    throw new DomainError('withdrawals.already_decided', { state: cur.state });
  }

  async #summary(tx: Tx, destinationId: string): Promise<string> {
    const d = await tx.selectFrom('withdrawal_destinations').select('summary').where('id', '=', destinationId).executeTakeFirstOrThrow();
    return d.summary;
  }

  /**
   * Approve: the hold is consumed and the amount leaves the platform's account at the market; the simulated
   * venue's books follow. pending_approval → approved → completed in one transaction (the sandbox venue pays
   * at once). Refused while not reconciled: money does not leave while the books and the market disagree.
   */
  async approve(approver: Approver, id: string, reason: string | null): Promise<WithdrawalRow> {
    const at = this.clock.now();
    const { actor } = approver;
    return this.db.transaction().execute(async (tx) => {
      await assertReconciled(tx);
      // The row lock serializes approvals of one withdrawal: two persons on the last approval decide it once.
      const cur = await tx.selectFrom('withdrawals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!cur) throw new DomainError('withdrawals.not_found');
      if (cur.state !== 'pending_approval') throw new DomainError('withdrawals.already_decided', { state: cur.state });
      const { decides, state } = await recordApproval(tx, at, 'withdrawal', { id, asset: cur.asset_symbol, amount: BigInt(cur.amount_minor) }, approver);
      const approvals = state.approvals.map((a) => ({ staffId: a.staffId, name: a.name }));
      if (!decides) {
        const pending = toWithdrawal(cur, await this.#summary(tx, cur.destination_id));
        await recordAudit(tx, this.ids, at, {
          actor, action: 'withdrawal.approval', subjectType: 'withdrawal', subjectId: id,
          before: audited(pending), after: { ...audited(pending), approvals, approvalsRequired: state.approvalsRequired },
        });
        return pending;
      }
      const w = await this.#decide(tx, id, 'approved', reason, at);
      const amount = BigInt(w.amount_minor);
      await captureHold(tx, w.hold_id, at);
      await postEntry(tx, this.ids.next('je'), withdrawalSettlementEntry({ organizationId: w.organization_id, assetSymbol: w.asset_symbol, amount, referenceId: id }), at);
      await tx.insertInto('venue_balances').values({ asset_symbol: w.asset_symbol, amount: (-amount).toString() })
        .onConflict((oc) => oc.column('asset_symbol').doUpdateSet({ amount: sql`venue_balances.amount + excluded.amount` })).execute();
      const done = await tx.updateTable('withdrawals').set({ state: 'completed', updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      const after = toWithdrawal(done, await this.#summary(tx, w.destination_id));
      await recordAudit(tx, this.ids, at, {
        actor, action: 'withdrawal.approve', subjectType: 'withdrawal', subjectId: id,
        before: { ...audited(after), state: 'pending_approval', reason: null }, after: { ...audited(after), approvals },
      });
      return after;
    });
  }

  /** Reject: the hold is released; nothing leaves. Allowed while not reconciled (it moves nothing out). */
  async reject(actor: string, id: string, reason: string | null): Promise<WithdrawalRow> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const w = await this.#decide(tx, id, 'rejected', reason, at);
      await releaseHold(tx, this.ids, at, w.hold_id, 'withdrawal_release', id);
      const after = toWithdrawal(w, await this.#summary(tx, w.destination_id));
      await recordAudit(tx, this.ids, at, {
        actor, action: 'withdrawal.reject', subjectType: 'withdrawal', subjectId: id,
        before: { ...audited(after), state: 'pending_approval', reason: null }, after: audited(after),
      });
      return after;
    });
  }
}
