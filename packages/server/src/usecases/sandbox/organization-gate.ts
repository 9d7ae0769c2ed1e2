import type { UseCaseDeps } from '../ports.ts';

/** A request the sandbox would decide: what the organization's own policy looks at. */
export interface GatedRequest {
  kind: 'order' | 'withdrawal';
  id: string;
  organizationId: string;
  amount: bigint;
}

/**
 * The one place that asks "does this request still wait for the organization?" (docs/sandbox.md): the
 * organization's policy, when it requires approvals by its own members, applies before the platform
 * decides anything, the sandbox included. No such policy exists yet, so nothing waits for the
 * organization; when it does, this answers from the request's approvals and the sandbox leaves the request
 * alone until the quorum is met (its sweep asks again each time).
 */
export async function waitsForOrganization(_d: UseCaseDeps, _r: GatedRequest): Promise<boolean> {
  return false;
}
