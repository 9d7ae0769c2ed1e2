import { DomainError } from '../../domain/errors.ts';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import type { UseCaseDeps } from '../ports.ts';

/**
 * Enables the organization's endpoint again (after it was disabled for failing), its failure streak
 * forgotten; the deliveries still pending are due at once, each a new round of attempts.
 */
export async function enableEndpoint(
  d: Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>,
  actor: string,
  organizationId: string,
  id: string,
): Promise<WebhookEndpoint> {
  const e = await d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    const before = await d.store.webhooks.lockStatus(tx, organizationId, id);
    const e = before && (await d.store.webhooks.enable(tx, organizationId, id, at));
    if (!before || !e) throw new DomainError('webhooks.not_found');
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'webhook.enabled',
      subjectType: 'webhook_endpoint',
      subjectId: id,
      before: { status: before.status, reason: before.disabledReason },
      after: { status: 'enabled' },
    });
    return e;
  });
  d.store.webhooks.wakes.nudge();
  return e;
}
