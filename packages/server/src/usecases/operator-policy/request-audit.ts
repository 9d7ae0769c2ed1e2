import type { StaffRequest } from '../../domain/approvals/staff-request.ts';

/** A staff request as the audit trail keeps it (amounts as digit strings). */
export const requestAudit = (r: StaffRequest) => ({
  kind: r.kind,
  state: r.state,
  organizationId: r.organizationId,
  assetSymbol: r.assetSymbol,
  amountMinor: r.amount.toString(),
  ...(r.subjectId ? { depositId: r.subjectId } : {}),
  ...(r.note ? { note: r.note } : {}),
  required: r.required,
  approvals: r.approvals.map((a) => ({ staffId: a.staffId, name: a.name })),
  ...(r.reason ? { reason: r.reason } : {}),
});
