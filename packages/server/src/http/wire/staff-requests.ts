import type { AppDeps } from '../../deps.ts';
import type { StaffRequest } from '../../domain/approvals/staff-request.ts';

/** A staff request on the wire; `decimals` is the market's for its asset. */
export const staffRequestWire = (r: StaffRequest, decimals: number) => ({
  id: r.id,
  kind: r.kind,
  state: r.state,
  organizationId: r.organizationId,
  assetSymbol: r.assetSymbol,
  assetDecimals: decimals,
  amountMinor: r.amount.toString(),
  depositId: r.subjectId,
  note: r.note,
  approvalsRequired: r.required,
  roles: [...r.roles],
  approvals: r.approvals.map((a) => ({ staffId: a.staffId, name: a.name, at: a.at.toISOString() })),
  requestedBy: r.requestedBy,
  reason: r.reason,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The decimals of each asset the market lists, to show requests' amounts. */
export async function decimalsOf(deps: Pick<AppDeps, 'store'>): Promise<(symbol: string) => number> {
  const assets = new Map((await deps.store.marketAssets.list()).map((a) => [a.symbol, a.decimals]));
  return (symbol) => assets.get(symbol) ?? 0;
}
