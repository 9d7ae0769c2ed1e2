import { DomainError } from '../../domain/errors.ts';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import { newWebhookSecret, WebhookSecretSealer } from '../../domain/webhooks/secret.ts';
import type { UseCaseDeps } from '../ports.ts';

/** During a rotation the previous secret keeps signing this long, beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/**
 * A new signing secret for the organization's endpoint, answered once in the clear; the current one
 * keeps signing beside it for ROTATION_OVERLAP_MS, so a receiver can switch without missing an event.
 * Audited, never with a secret.
 */
export async function rotateSecret(
  d: Pick<UseCaseDeps, 'store' | 'clock' | 'ids'> & { secret: string },
  actor: string,
  organizationId: string,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newWebhookSecret();
  const sealed = new WebhookSecretSealer(d.secret).seal(secret, { organizationId, endpointId: id });
  const endpoint = await d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    const previousUntil = new Date(at.getTime() + ROTATION_OVERLAP_MS);
    const e = await d.store.webhooks.rotate(tx, organizationId, id, sealed, previousUntil, at);
    if (!e) throw new DomainError('webhooks.not_found');
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'webhook.secret_rotated',
      subjectType: 'webhook_endpoint',
      subjectId: id,
      before: null,
      after: { previousSecretUntil: previousUntil.toISOString() },
    });
    return e;
  });
  return { endpoint, secret };
}
