import { openDestination } from '../../domain/destinations/register.ts';
import type { DestinationSealer } from '../../domain/destinations/sealer.ts';
import { DomainError } from '../../domain/errors.ts';
import { withStepUp, type StepUpProof } from '../people/step-up.ts';
import type { PeopleDeps } from '../people/people-deps.ts';

/**
 * A staff person (approver or admin: the route's role) reads a bank destination's full account number to
 * pay a wire or confirm its registration (docs/security.md, Withdrawal destinations). Confirmed by
 * step-up, and recorded in the audit trail in the same transaction as the code's use: who, which
 * destination, when; never the number itself.
 */
export async function revealDestination(
  d: PeopleDeps & { sealer: DestinationSealer },
  staffId: string | null,
  destinationId: string,
  proof: StepUpProof,
): Promise<{ id: string; organizationId: string; accountNumber: string }> {
  // An unknown destination is a 404 before any code is spent (the person can list them anyway).
  const sealed = await d.store.destinations.sealed(destinationId);
  // A crypto address is listed whole already: only a bank account has a number to reveal.
  if (!sealed || !sealed.accountNumberEnc) throw new DomainError('destinations.not_found');
  // A person confirms it with their own second factor: the bootstrap token (null) is nobody's.
  if (staffId === null) throw new DomainError('auth.step_up_required');
  const { accountNumber } = openDestination(d.sealer, sealed);
  return withStepUp(d, 'staff', staffId, proof, async (tx) => {
    await d.store.audit.record(tx, d.ids, d.clock.now(), {
      actor: `staff:${staffId}`,
      action: 'destination.reveal',
      subjectType: 'destination',
      subjectId: destinationId,
      before: null,
      after: { organizationId: sealed.organizationId, field: 'accountNumber' },
    });
    return { id: destinationId, organizationId: sealed.organizationId, accountNumber };
  });
}
