import { DomainError } from '../../domain/errors.ts';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import type { UseCaseDeps } from '../ports.ts';

/** Deletes the organization's endpoint with its deliveries and their log: nothing more is sent to it. Another organization's is not found. */
export async function deleteEndpoint(
  d: Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>,
  actor: string,
  organizationId: string,
  id: string,
): Promise<WebhookEndpoint> {
  return d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    const e = await d.store.webhooks.delete(tx, organizationId, id);
    if (!e) throw new DomainError('webhooks.not_found');
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'webhook.deleted',
      subjectType: 'webhook_endpoint',
      subjectId: id,
      before: { url: e.url, status: e.status },
      after: null,
    });
    return e;
  });
}
