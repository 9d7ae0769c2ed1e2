import type { PortalApprovalOutcome } from '@cambio/sdk';
import { kv } from '../output.ts';

/** Where a request stands after a member's decision. */
export function outcomeText(o: PortalApprovalOutcome): string {
  return kv([
    ['kind', o.kind],
    ['request', o.id],
    ['state', o.state],
    ['approved by', o.approvals.given.map((g) => g.name).join(', ') || '-'],
    ['required', o.approvals.required],
    ['waiting for', o.approvals.waitingFor],
  ]);
}
