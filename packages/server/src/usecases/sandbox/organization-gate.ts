import type { UseCaseDeps } from '../ports.ts';

/** A request the sandbox would decide: what the organization's own policy looks at. */
export interface GatedRequest {
  kind: 'order' | 'withdrawal';
  id: string;
  organizationId: string;
  amount: bigint;
}

/**
 * The one place that asks "does this request still wait for the organization?" (docs/sandbox.md,
 * docs/controls.md): the organization's policy, when it requires approvals by its own members, applies
 * before the platform decides anything, the sandbox included. The sandbox leaves such a request alone
 * until the quorum is met (its sweep asks again each time); the operator's decision refuses it too, so a
 * sweep that read this a moment before the last approval still decides nothing early.
 */
export async function waitsForOrganization(d: UseCaseDeps, r: GatedRequest): Promise<boolean> {
  const kind = r.kind === 'order' ? 'orders' : 'withdrawals';
  return (await d.store.controls.forRequests(kind, [r.id])).get(r.id)?.waitingFor === 'organization';
}
