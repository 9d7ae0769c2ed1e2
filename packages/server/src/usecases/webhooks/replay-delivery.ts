import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';

/**
 * Sends one of the organization's events to its endpoint again, due now, as a new round of attempts with
 * the same webhook-id; also an event the endpoint never had. `eventId` is the store's (already read from
 * the opaque form); null when it did not read.
 */
export async function replayDelivery(
  d: Pick<UseCaseDeps, 'store' | 'clock'>,
  organizationId: string,
  endpointId: string,
  eventId: string | null,
): Promise<Date> {
  if (eventId === null) throw new DomainError('webhooks.event_not_found');
  const at = await d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    if (!(await d.store.webhooks.exists(tx, organizationId, endpointId))) throw new DomainError('webhooks.not_found');
    const seq = await d.store.webhooks.eventSeq(tx, organizationId, eventId);
    if (seq === null) throw new DomainError('webhooks.event_not_found');
    await d.store.webhooks.resend(tx, endpointId, seq, at);
    return at;
  });
  d.store.webhooks.wakes.nudge();
  return at;
}
