import { randomBytes } from 'node:crypto';
import { DomainError } from '../../domain/errors.ts';
import { WebhookSecretSealer } from '../../domain/webhooks/secret.ts';
import { webhookHeaders } from '../../domain/webhooks/sign.ts';
import type { UseCaseDeps, WebhookSender } from '../ports.ts';

/** As long as a delivery's attempt may take (docs/webhooks.md: a 2xx within 10 s is delivered). */
const TEST_TIMEOUT_MS = 10_000;
/** How much of the endpoint's answer the outcome shows. */
export const EXCERPT_CHARS = 500;

export interface TestEventOutcome {
  eventId: string;
  type: 'webhook.test';
  state: 'delivered' | 'failed';
  statusCode: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  error: string | null;
  sentAt: Date;
}

/**
 * Sends a signed `webhook.test` event to one of the organization's endpoints now and answers how it went
 * (docs/sandbox.md). It goes through the delivery's sender, so the delivery's address rules apply (checked
 * at the attempt, the connection pinned to the address checked), signed as a delivery is (both secrets
 * during a rotation). Nothing is written: the event is not one of the organization's events and has no
 * delivery to retry; no transaction is open while it is sent.
 */
export async function sendTestEvent(
  d: Pick<UseCaseDeps, 'store' | 'clock'> & { secret: string; sender: WebhookSender },
  organizationId: string,
  endpointId: string,
): Promise<TestEventOutcome> {
  const e = await d.store.webhooks.signingOf(organizationId, endpointId);
  if (!e) throw new DomainError('webhooks.not_found');
  const sentAt = d.clock.now();
  const row = { organizationId, endpointId };
  const sealer = new WebhookSecretSealer(d.secret);
  const secrets = [sealer.open(e.secretSealed, row)];
  if (e.previousSecretSealed !== null && e.previousSecretUntil !== null && e.previousSecretUntil > sentAt)
    secrets.push(sealer.open(e.previousSecretSealed, row));
  const id = `evt_test_${randomBytes(12).toString('hex')}`;
  const body = JSON.stringify({
    id,
    type: 'webhook.test',
    createdAt: sentAt.toISOString(),
    data: { endpointId, message: 'A test event sent from Cambio: this endpoint receives and verifies signed events.' },
  });
  const t0 = performance.now();
  const answer = await d.sender.post({
    url: e.url,
    headers: webhookHeaders(secrets, id, new Date(), body),
    body,
    timeoutMs: TEST_TIMEOUT_MS,
    endpointId,
    excerptChars: EXCERPT_CHARS,
  });
  const latencyMs = Math.trunc(performance.now() - t0);
  const delivered = answer.statusCode !== undefined && answer.statusCode >= 200 && answer.statusCode < 300;
  return {
    eventId: id,
    type: 'webhook.test',
    state: delivered ? 'delivered' : 'failed',
    statusCode: answer.statusCode ?? null,
    latencyMs,
    responseExcerpt: answer.excerpt ?? null,
    error: delivered ? null : (answer.error ?? `answered ${answer.statusCode}`),
    sentAt,
  };
}
