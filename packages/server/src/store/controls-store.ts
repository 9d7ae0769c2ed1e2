import type { ApprovalKind, PolicyAction } from '@cambio/contract';
import { sql } from 'kysely';
import type { GivenApproval, OrganizationApprovals } from '../domain/policy/approvals.ts';
import type { PolicyRule } from '../domain/policy/rules.ts';
import type { ControlsRepository, StoredPolicy, WaitingRequest } from '../usecases/repositories.ts';
import type { Db } from './db.ts';
import { toJson as json } from './json.ts';
import type { StoredApproval, StoredRule } from './schema.ts';
import type { Tx } from './unit-of-work.ts';

const toStored = (r: PolicyRule): StoredRule => ({
  action: r.action,
  assetSymbol: r.assetSymbol,
  fromAmountMinor: r.fromAmount === null ? null : r.fromAmount.toString(),
  approvals: r.approvals,
});
const fromStored = (r: StoredRule): PolicyRule => ({
  action: r.action as PolicyAction,
  assetSymbol: r.assetSymbol,
  fromAmount: r.fromAmountMinor === null ? null : BigInt(r.fromAmountMinor),
  approvals: r.approvals,
});
const givenOf = (g: StoredApproval[]): GivenApproval[] => g.map((x) => ({ memberId: x.memberId, name: x.name, at: new Date(x.at) }));

type ApprovalRow = {
  kind: string;
  request_id: string;
  organization_id: string;
  initiator_member_id: string;
  required: number;
  given: StoredApproval[];
  waiting_for: string;
};
const toApprovals = (r: ApprovalRow): OrganizationApprovals => ({
  kind: r.kind as ApprovalKind,
  requestId: r.request_id,
  organizationId: r.organization_id,
  initiatorMemberId: r.initiator_member_id,
  required: r.required,
  given: givenOf(r.given),
  waitingFor: r.waiting_for as 'organization' | 'operator',
});
const COLUMNS = ['kind', 'request_id', 'organization_id', 'initiator_member_id', 'required', 'given', 'waiting_for'] as const;

/** The organization's policy and what waits for its members' approvals (docs/controls.md). */
export class ControlsStore implements ControlsRepository {
  constructor(private readonly db: Db) {}

  async policyOf(organizationId: string, tx?: Tx): Promise<StoredPolicy> {
    const r = await (tx ?? this.db)
      .selectFrom('organization_policies as p')
      .leftJoin('members as m', 'm.id', 'p.updated_by')
      .select(['p.rules', 'p.updated_at', 'p.updated_by', 'm.name'])
      .where('p.organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!r) return { rules: [], updatedAt: null, updatedBy: null };
    return { rules: r.rules.map(fromStored), updatedAt: r.updated_at, updatedBy: { id: r.updated_by, name: r.name ?? '' } };
  }

  /** The rules in force, read in `tx` under a share lock: a change committing meanwhile is waited for, never half seen. */
  async rulesIn(tx: Tx, organizationId: string): Promise<PolicyRule[]> {
    const r = await tx
      .selectFrom('organization_policies')
      .select('rules')
      .where('organization_id', '=', organizationId)
      .forShare()
      .executeTakeFirst();
    return r ? r.rules.map(fromStored) : [];
  }

  async putPolicy(tx: Tx, organizationId: string, rules: PolicyRule[], at: Date, memberId: string): Promise<void> {
    const stored = json(rules.map(toStored));
    await tx
      .insertInto('organization_policies')
      .values({ organization_id: organizationId, rules: stored, updated_at: at, updated_by: memberId })
      .onConflict((c) => c.column('organization_id').doUpdateSet({ rules: stored, updated_at: at, updated_by: memberId }))
      .execute();
  }

  async open(tx: Tx, a: OrganizationApprovals, at: Date): Promise<void> {
    await tx
      .insertInto('organization_approvals')
      .values({
        kind: a.kind,
        request_id: a.requestId,
        organization_id: a.organizationId,
        initiator_member_id: a.initiatorMemberId,
        required: a.required,
        given: json([]),
        waiting_for: a.waitingFor,
        rejected_by: null,
        reason: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  async of(tx: Tx, kind: ApprovalKind, requestId: string): Promise<OrganizationApprovals | null> {
    const r = await tx
      .selectFrom('organization_approvals')
      .select(COLUMNS)
      .where('kind', '=', kind)
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    return r ? toApprovals(r) : null;
  }

  async lock(tx: Tx, kind: ApprovalKind, requestId: string): Promise<OrganizationApprovals | null> {
    const r = await tx
      .selectFrom('organization_approvals')
      .select(COLUMNS)
      .where('kind', '=', kind)
      .where('request_id', '=', requestId)
      .forUpdate()
      .executeTakeFirst();
    return r ? toApprovals(r) : null;
  }

  async save(tx: Tx, a: OrganizationApprovals, at: Date): Promise<void> {
    await tx
      .updateTable('organization_approvals')
      .set({
        given: json(a.given.map((g) => ({ memberId: g.memberId, name: g.name, at: g.at.toISOString() }))),
        waiting_for: a.waitingFor,
        updated_at: at,
      })
      .where('kind', '=', a.kind)
      .where('request_id', '=', a.requestId)
      .execute();
  }

  async recordRejection(tx: Tx, kind: ApprovalKind, requestId: string, memberId: string, reason: string | null, at: Date): Promise<void> {
    await tx
      .updateTable('organization_approvals')
      .set({ rejected_by: memberId, reason, updated_at: at })
      .where('kind', '=', kind)
      .where('request_id', '=', requestId)
      .execute();
  }

  async forRequests(kind: ApprovalKind, ids: string[]): Promise<Map<string, OrganizationApprovals>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('organization_approvals')
      .select(COLUMNS)
      .where('kind', '=', kind)
      .where('request_id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.request_id, toApprovals(r)]));
  }

  /**
   * What waits for the organization's members, oldest first: only requests still pending (a cancelled or
   * rejected one has left), with what an approver needs to see to decide.
   */
  async waiting(organizationId: string): Promise<WaitingRequest[]> {
    const r = await sql<
      ApprovalRow & {
        created_at: Date | string;
        initiator_name: string | null;
        asset_symbol: string | null;
        asset_decimals: number | null;
        amount_minor: string | null;
        summary: string | null;
      }
    >`
      select a.kind, a.request_id, a.organization_id, a.initiator_member_id, a.required, a.given, a.waiting_for, a.created_at,
        m.name as initiator_name,
        coalesce(w.asset_symbol, o.base_symbol, d.asset_symbol) as asset_symbol,
        coalesce(w.asset_decimals, o.base_decimals) as asset_decimals,
        coalesce(w.amount_minor, o.amount_base_minor)::text as amount_minor,
        coalesce(wd.summary, o.base_symbol || '/' || o.quote_symbol, d.label || ' · ' || d.summary, 'policy') as summary
      from organization_approvals a
      left join members m on m.id = a.initiator_member_id
      left join withdrawals w on a.kind = 'withdrawals' and w.id = a.request_id
      left join withdrawal_destinations wd on wd.id = w.destination_id
      left join orders o on a.kind = 'orders' and o.id = a.request_id
      left join withdrawal_destinations d on a.kind = 'destinations' and d.id = a.request_id
      left join organization_policy_changes p on a.kind = 'policy' and p.id = a.request_id
      where a.organization_id = ${organizationId} and a.waiting_for = 'organization'
        and coalesce(w.state, o.state, p.state, d.state) = 'pending_approval'
      order by a.created_at, a.request_id
      limit 500`.execute(this.db);
    return r.rows.map((x) => ({
      approvals: toApprovals(x),
      initiatorName: x.initiator_name ?? '',
      money:
        x.asset_symbol !== null && x.amount_minor !== null && x.asset_decimals !== null
          ? { assetSymbol: x.asset_symbol, assetDecimals: x.asset_decimals, amount: BigInt(x.amount_minor) }
          : null,
      summary: x.summary ?? '',
      createdAt: new Date(x.created_at),
    }));
  }

  // policy changes that wait for approvals

  async insertPolicyChange(
    tx: Tx,
    c: { id: string; organizationId: string; rules: PolicyRule[]; createdBy: string },
    at: Date,
  ): Promise<void> {
    await tx
      .insertInto('organization_policy_changes')
      .values({
        id: c.id,
        organization_id: c.organizationId,
        rules: json(c.rules.map(toStored)),
        state: 'pending_approval',
        created_by: c.createdBy,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  async lockPolicyChange(
    tx: Tx,
    id: string,
  ): Promise<{ organizationId: string; state: string; rules: PolicyRule[]; createdBy: string } | null> {
    const r = await tx.selectFrom('organization_policy_changes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return r ? { organizationId: r.organization_id, state: r.state, rules: r.rules.map(fromStored), createdBy: r.created_by } : null;
  }

  async endPolicyChange(tx: Tx, id: string, state: 'applied' | 'rejected', at: Date): Promise<void> {
    await tx.updateTable('organization_policy_changes').set({ state, updated_at: at }).where('id', '=', id).execute();
  }

  /** An event of the organization's approvals (approval.requested, approval.given, approval.rejected), in `tx`. */
  async emit(
    tx: Tx,
    e: { organizationId: string; type: string; subjectId: string; data: Record<string, unknown> },
    at: Date,
  ): Promise<void> {
    await tx
      .insertInto('events')
      .values({ organization_id: e.organizationId, type: e.type, subject_id: e.subjectId, data: json(e.data), created_at: at })
      .execute();
  }
}
