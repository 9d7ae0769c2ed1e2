import { sql } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import type { Organization } from '../domain/organizations/organization.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import { checkWithdrawal, type WithdrawalState } from '../domain/withdrawals/withdrawal.ts';
import { AnswersOfWork, claimInWorkCtes, claimOutcomes, keepAnswersSql, type AnswerInWork, type KeptAnswer } from './answers-in-work.ts';
import type { Db } from './db.ts';
import { takeHold } from './holds.ts';
import { createdWithin, mapPage, readPage, type CreatedWindow, type Page, type PageParams } from './paging.ts';
import { assertReconciled } from './platform-state-store.ts';
import type { Tx } from './unit-of-work.ts';

export interface WithdrawalRow {
  id: string; organizationId: string; state: WithdrawalState; assetSymbol: string; assetDecimals: number; amount: bigint;
  destinationId: string; destinationSummary: string; reason: string | null; payoutReference: string | null; createdAt: Date; updatedAt: Date;
}

/** What a withdrawal request reads of its destination. */
interface DestinationForRequest { organization_id: string; asset_symbol: string; cooldown_until: Date; registered_in_market_at: Date | null; summary: string }

type Row = {
  id: string; organization_id: string; state: string; asset_symbol: string; asset_decimals: number; amount_minor: string;
  destination_id: string; reason: string | null; payout_reference: string | null; created_at: Date; updated_at: Date;
};
const toWithdrawal = (r: Row, summary: string): WithdrawalRow => ({
  id: r.id, organizationId: r.organization_id, state: r.state as WithdrawalState, assetSymbol: r.asset_symbol,
  assetDecimals: r.asset_decimals, amount: BigInt(r.amount_minor), destinationId: r.destination_id, destinationSummary: summary,
  reason: r.reason, payoutReference: r.payout_reference, createdAt: r.created_at, updatedAt: r.updated_at,
});

/** Withdrawal requests: the hold at request, the operator's one decision, the amount leaving. */
export class WithdrawalsStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  /**
   * The hold is taken in the same transaction that writes the request (CONTRACT §2). A keyed request's
   * answer, a reference to the request, is written in that transaction too; on PostgreSQL its key is
   * claimed there as well (KeptAnswer.claimInWork), by the statement that reads the destination: null
   * when the key could not be claimed, and nothing was written (the request is told why: `unclaimed`).
   */
  async request(org: Organization, r: { destinationId: string; assetSymbol: string; assetDecimals: number; amount: bigint }, keep?: AnswerInWork<string>): Promise<WithdrawalRow | null> {
    const at = this.clock.now();
    const id = this.ids.next('wdr');
    const answers = new AnswersOfWork();
    const w = await this.db.transaction().execute(async (tx) => {
      await assertReconciled(tx);
      answers.add(keep, id);
      const inWork = answers.answers.filter((a) => a.claimInWork);
      const d = inWork.length === 0 ? await this.#destination(tx, r.destinationId) : await this.#claimingDestination(tx, r.destinationId, inWork, answers);
      if (d === null) return null;
      const m = await tx.selectFrom('market_assets').select('decimals').where('symbol', '=', r.assetSymbol).executeTakeFirst();
      checkWithdrawal({
        organizationId: org.id, assetSymbol: r.assetSymbol, assetDecimals: r.assetDecimals, amount: r.amount,
        marketDecimals: m?.decimals ?? null, limits: org.limits, now: at,
        destination: d ? { organizationId: d.organization_id, assetSymbol: d.asset_symbol, cooldownUntil: d.cooldown_until, registeredInMarketAt: d.registered_in_market_at } : null,
      });
      const w: WithdrawalRow = {
        id, organizationId: org.id, state: 'pending_approval', assetSymbol: r.assetSymbol, assetDecimals: r.assetDecimals, amount: r.amount,
        destinationId: r.destinationId, destinationSummary: d!.summary, reason: null, payoutReference: null, createdAt: at, updatedAt: at,
      };
      const claimedBefore = answers.answers.filter((a) => !a.claimInWork);
      await takeHold(tx, this.ids, at, { organizationId: org.id, assetSymbol: r.assetSymbol, amount: r.amount, kind: 'withdrawal_hold', referenceId: id },
        async (holdId) => {
          const row = {
            id, organization_id: org.id, destination_id: r.destinationId, hold_id: holdId, state: w.state,
            asset_symbol: r.assetSymbol, asset_decimals: r.assetDecimals, amount_minor: r.amount.toString(), reason: null,
            created_at: at, updated_at: at,
          };
          if (claimedBefore.length === 0) return void await tx.insertInto('withdrawals').values(row).execute();
          // A keyed request's answer (a reference to it) rides on the request's own INSERT: no statement of its
          // own in the transaction, and still before the hold's entry locks the balance row.
          const written = await tx.with('kept', () => sql`(${keepAnswersSql(claimedBefore)})`).insertInto('withdrawals').values(row)
            .returning(sql<Array<{ scope: string; key: string }>>`(select coalesce(json_agg(json_build_object('scope', kept.scope, 'key', kept.key)), '[]'::json) from kept)`.as('kept'))
            .executeTakeFirstOrThrow();
          answers.answered(written.kept);
        });
      return w;
    });
    answers.tell();
    return w;
  }

  #destination(tx: Tx, id: string): Promise<DestinationForRequest | undefined> {
    return tx.selectFrom('withdrawal_destinations')
      .select(['organization_id', 'asset_symbol', 'cooldown_until', 'registered_in_market_at', 'summary'])
      .where('id', '=', id).executeTakeFirst();
  }

  /**
   * The destination, read by the statement that claims the request's key and keeps its answer
   * (claimInWorkCtes): undefined when there is none; null when the key was not claimed.
   */
  async #claimingDestination(tx: Tx, id: string, inWork: KeptAnswer[], answers: AnswersOfWork): Promise<DestinationForRequest | undefined | null> {
    const r = await sql<{ claims: Array<{ scope: string; key: string; kept: boolean; busy: boolean }>; d: { organization_id: string; asset_symbol: string; cooldown_until: string; registered_in_market_at: string | null; summary: string } | null }>`with ${claimInWorkCtes(inWork)}
      select (select coalesce(json_agg(o), '[]'::json) from (${claimOutcomes}) o) as claims,
        (select row_to_json(x) from (select organization_id, asset_symbol, cooldown_until, registered_in_market_at, summary
          from withdrawal_destinations where id = ${id}) x) as d`.execute(tx);
    const { claims, d } = r.rows[0]!;
    answers.answered(claims);
    if (!claims.every((c) => c.kept)) return null;
    return d ? { ...d, cooldown_until: new Date(d.cooldown_until), registered_in_market_at: d.registered_in_market_at === null ? null : new Date(d.registered_in_market_at) } : undefined;
  }

  /** Newest first; one organization's (client) or all, optionally in one state (operator). */
  async list(p: PageParams, filter: { organizationId?: string; state?: string | undefined } & CreatedWindow = {}): Promise<Page<WithdrawalRow>> {
    let q = createdWithin(this.db.selectFrom('withdrawals as w'), 'w.created_at', filter);
    if (filter.organizationId) q = q.where('w.organization_id', '=', filter.organizationId);
    if (filter.state) q = q.where('w.state', '=', filter.state);
    const page = await readPage(q, 'w.seq', p, (x) => x.innerJoin('withdrawal_destinations as d', 'd.id', 'w.destination_id')
      .select(['w.id', 'w.organization_id', 'w.state', 'w.asset_symbol', 'w.asset_decimals', 'w.amount_minor', 'w.destination_id', 'w.reason', 'w.payout_reference', 'w.created_at', 'w.updated_at', 'd.summary']),
    filter.organizationId && !filter.state && !filter.createdFrom && !filter.createdTo ? { list: 'withdrawals', owner: filter.organizationId } : undefined);
    return mapPage(page, (r) => toWithdrawal(r, r.summary));
  }

  /** Whether the withdrawal is this organization's (a cancel of another's is not found, never revealed). */
  async belongsTo(tx: Tx, id: string, organizationId: string): Promise<boolean> {
    return (await tx.selectFrom('withdrawals').select('id').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst()) !== undefined;
  }

  /** One withdrawal of one organization, with its destination's summary (another organization's: null). */
  async getFor(organizationId: string, id: string): Promise<WithdrawalRow | null> {
    const r = await this.db.selectFrom('withdrawals as w').innerJoin('withdrawal_destinations as d', 'd.id', 'w.destination_id')
      .select(['w.id', 'w.organization_id', 'w.state', 'w.asset_symbol', 'w.asset_decimals', 'w.amount_minor', 'w.destination_id', 'w.reason', 'w.payout_reference', 'w.created_at', 'w.updated_at', 'd.summary'])
      .where('w.id', '=', id).where('w.organization_id', '=', organizationId).executeTakeFirst();
    return r ? toWithdrawal(r, r.summary) : null;
  }

  /**
   * The withdrawal awaiting a decision, its row locked until the caller's transaction ends: approvals of
   * one withdrawal are serialized (four-eyes: two persons on the last approval decide it once).
   */
  async lockPending(tx: Tx, id: string): Promise<WithdrawalRow> {
    const cur = await tx.selectFrom('withdrawals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!cur) throw new DomainError('withdrawals.not_found');
    if (cur.state !== 'pending_approval') throw new DomainError('withdrawals.already_decided', { state: cur.state });
    return toWithdrawal(cur, await this.#summary(tx, cur.destination_id));
  }

  /** Only the caller whose UPDATE moves it out of pending_approval decides; every other gets 409. */
  async decide(tx: Tx, id: string, state: 'approved' | 'rejected' | 'cancelled', reason: string | null, at: Date): Promise<WithdrawalRow & { holdId: string }> {
    const w = await tx.updateTable('withdrawals').set({ state, reason, updated_at: at })
      .where('id', '=', id).where('state', '=', 'pending_approval').returningAll().executeTakeFirst();
    if (w) return { ...toWithdrawal(w, await this.#summary(tx, w.destination_id)), holdId: w.hold_id };
    const cur = await tx.selectFrom('withdrawals').select('state').where('id', '=', id).executeTakeFirst();
    if (!cur) throw new DomainError('withdrawals.not_found');
    throw new DomainError('withdrawals.already_decided', { state: cur.state });
  }

  /**
   * approved → `to`, once, in the caller's transaction (the payout recorded, or its failure); null when
   * the withdrawal is not approved, so a second caller finds it settled.
   */
  async settle(tx: Tx, id: string, to: 'completed' | 'failed', at: Date, set: { payoutReference?: string; reason?: string }): Promise<(WithdrawalRow & { holdId: string }) | null> {
    const w = await tx.updateTable('withdrawals').set({
      state: to, updated_at: at,
      ...(set.payoutReference !== undefined ? { payout_reference: set.payoutReference } : {}),
      ...(set.reason !== undefined ? { reason: set.reason } : {}),
    }).where('id', '=', id).where('state', '=', 'approved').returningAll().executeTakeFirst();
    return w ? { ...toWithdrawal(w, await this.#summary(tx, w.destination_id)), holdId: w.hold_id } : null;
  }

  /** The state a withdrawal is in now (null: no such withdrawal), for the answer to a caller who lost a race. */
  async stateIn(tx: Tx, id: string): Promise<WithdrawalState | null> {
    const cur = await tx.selectFrom('withdrawals').select('state').where('id', '=', id).executeTakeFirst();
    return (cur?.state as WithdrawalState | undefined) ?? null;
  }

  async #summary(tx: Tx, destinationId: string): Promise<string> {
    const d = await tx.selectFrom('withdrawal_destinations').select('summary').where('id', '=', destinationId).executeTakeFirstOrThrow();
    return d.summary;
  }
}
