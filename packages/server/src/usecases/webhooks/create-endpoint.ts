import { DomainError } from '../../domain/errors.ts';
import { MAX_ENDPOINTS_PER_ORGANIZATION, urlProblem, type WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import { newWebhookSecret, WebhookSecretSealer } from '../../domain/webhooks/secret.ts';
import type { UseCaseDeps } from '../ports.ts';

export interface CreateEndpointDeps extends Pick<UseCaseDeps, 'store' | 'clock' | 'ids'> {
  secret: string;
  /** Whether the url may not be called now (production: it must resolve to public addresses); absent, only its form is checked. */
  urlRefusal?: ((url: string) => Promise<boolean>) | undefined;
}

/**
 * Registers an endpoint for the organization's events. Its signing secret is made here, sealed for the
 * store and answered once in the clear. At most MAX_ENDPOINTS_PER_ORGANIZATION: the count is taken with
 * the organization's row locked, so two creations cannot both pass the last place.
 */
export async function createEndpoint(
  d: CreateEndpointDeps,
  actor: string,
  organizationId: string,
  input: { url: string; types: string[] | null },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const problem = urlProblem(input.url);
  if (problem) throw new DomainError('webhooks.url_invalid', { detail: problem });
  // Only that the address is not allowed: what a name resolves to, or why it does not, would let a client
  // map the operator's internal DNS (docs/security.md).
  if (d.urlRefusal && (await d.urlRefusal(input.url))) throw new DomainError('webhooks.url_refused');
  const id = d.ids.next('whk');
  const secret = newWebhookSecret();
  const secretSealed = new WebhookSecretSealer(d.secret).seal(secret, { organizationId, endpointId: id });
  const endpoint = await d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    if ((await d.store.webhooks.countLocked(tx, organizationId)) >= MAX_ENDPOINTS_PER_ORGANIZATION) {
      throw new DomainError('webhooks.too_many', { max: String(MAX_ENDPOINTS_PER_ORGANIZATION) });
    }
    const e = await d.store.webhooks.insert(tx, { id, organizationId, url: input.url, types: input.types, secretSealed }, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'webhook.created',
      subjectType: 'webhook_endpoint',
      subjectId: id,
      before: null,
      after: { url: input.url, types: input.types },
    });
    return e;
  });
  return { endpoint, secret };
}
