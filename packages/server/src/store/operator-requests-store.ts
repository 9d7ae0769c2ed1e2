import type { Approval } from '../domain/approvals/four-eyes.ts';
import type { CountingRole } from '../domain/approvals/operator-rules.ts';
import type { StaffRequest, StaffRequestKind, StaffRequestState } from '../domain/approvals/staff-request.ts';
import type { StaffRequestsRepository } from '../usecases/repositories.ts';
import type { Db } from './db.ts';
import { toJson as json } from './json.ts';
import type { StoredStaffApproval } from './schema.ts';
import type { Tx } from './unit-of-work.ts';

type Row = {
  id: string;
  kind: string;
  state: string;
  organization_id: string;
  asset_symbol: string;
  amount_minor: string;
  subject_id: string | null;
  note: string;
  required: number;
  roles: string[];
  approvals: StoredStaffApproval[];
  requested_by: string;
  requested_by_name: string;
  reason: string | null;
  created_at: Date;
  updated_at: Date;
};
const COLUMNS = [
  'id',
  'kind',
  'state',
  'organization_id',
  'asset_symbol',
  'amount_minor',
  'subject_id',
  'note',
  'required',
  'roles',
  'approvals',
  'requested_by',
  'requested_by_name',
  'reason',
  'created_at',
  'updated_at',
] as const;
const stored = (a: Approval[]): StoredStaffApproval[] => a.map((x) => ({ staffId: x.staffId, name: x.name, at: x.at.toISOString() }));
const toRequest = (r: Row): StaffRequest => ({
  id: r.id,
  kind: r.kind as StaffRequestKind,
  state: r.state as StaffRequestState,
  organizationId: r.organization_id,
  assetSymbol: r.asset_symbol,
  amount: BigInt(r.amount_minor),
  subjectId: r.subject_id,
  note: r.note,
  required: r.required,
  roles: r.roles as CountingRole[],
  approvals: r.approvals.map((a) => ({ staffId: a.staffId, name: a.name, at: new Date(a.at) })),
  requestedBy: { actor: r.requested_by, name: r.requested_by_name },
  reason: r.reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Adjustments and attributions that wait for enough staff approvals (docs/controls.md). */
export class StaffRequestsStore implements StaffRequestsRepository {
  constructor(private readonly db: Db) {}

  async insert(tx: Tx, r: StaffRequest): Promise<void> {
    await tx
      .insertInto('operator_requests')
      .values({
        id: r.id,
        kind: r.kind,
        state: r.state,
        organization_id: r.organizationId,
        asset_symbol: r.assetSymbol,
        amount_minor: r.amount.toString(),
        subject_id: r.subjectId,
        note: r.note,
        required: r.required,
        roles: json(r.roles),
        approvals: json(stored(r.approvals)),
        requested_by: r.requestedBy.actor,
        requested_by_name: r.requestedBy.name,
        reason: null,
        created_at: r.createdAt,
        updated_at: r.updatedAt,
      })
      .execute();
  }

  /** The request, its row locked until `tx` ends (each decision happens once); null when there is none. */
  async lock(tx: Tx, id: string): Promise<StaffRequest | null> {
    const r = await tx.selectFrom('operator_requests').select(COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
    return r ? toRequest(r) : null;
  }

  /** Whether an attribution of this deposit already waits. */
  async pendingFor(tx: Tx, subjectId: string): Promise<boolean> {
    const r = await tx
      .selectFrom('operator_requests')
      .select('id')
      .where('subject_id', '=', subjectId)
      .where('state', '=', 'pending_approval')
      .executeTakeFirst();
    return r !== undefined;
  }

  async save(tx: Tx, id: string, set: { state: StaffRequestState; approvals: Approval[]; reason: string | null }, at: Date): Promise<void> {
    await tx
      .updateTable('operator_requests')
      .set({ state: set.state, approvals: json(stored(set.approvals)), reason: set.reason, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async get(id: string): Promise<StaffRequest | null> {
    const r = await this.db.selectFrom('operator_requests').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return r ? toRequest(r) : null;
  }

  /** Newest first, at most 200; one state or every one. */
  async list(state?: StaffRequestState): Promise<StaffRequest[]> {
    let q = this.db.selectFrom('operator_requests').select(COLUMNS);
    if (state) q = q.where('state', '=', state);
    return (await q.orderBy('seq', 'desc').limit(200).execute()).map(toRequest);
  }
}
