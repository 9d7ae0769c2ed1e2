import type { Clock, Ids } from '../../domain/ports.ts';
import { DISABLE_AFTER_MS, endpointGivesUp } from '../../domain/webhooks/schedule.ts';
import type { AttemptOutcome, ClaimedDelivery, Repositories } from '../repositories.ts';

/**
 * Records a claimed attempt's outcome. Successes and failures are each recorded with others of their kind
 * that end together (one statement); a failure also starts its endpoint's failure streak. An endpoint failing
 * without a success for `disableAfterMs` (see endpointGivesUp) is then disabled, and its organization told: a
 * `webhook.disabled` event (sent to its other endpoints too) and an audit entry, in one transaction, unless a
 * success ended the streak meanwhile (a crash before it leaves the next failure to disable it).
 * `recorded` is false when the claim is no longer this worker's (its lease ran out and another claimed
 * it): nothing is written.
 */
export async function recordAttempt(
  d: { store: Repositories; clock: Clock; ids: Ids },
  c: ClaimedDelivery,
  o: AttemptOutcome,
  delivered: boolean,
  retryAt: Date | null,
  disableAfterMs: number = DISABLE_AFTER_MS,
): Promise<{ recorded: boolean; disabled: boolean }> {
  if (delivered) return { recorded: await d.store.webhooks.recordDelivered(c, o), disabled: false };
  const e = await d.store.webhooks.recordFailed(c, o, retryAt);
  if (e === null) return { recorded: false, disabled: false };
  const at = d.clock.now();
  if (!e || e.status !== 'enabled' || !endpointGivesUp(at.getTime() - e.failingSince.getTime(), retryAt === null, disableAfterMs)) {
    return { recorded: true, disabled: false };
  }
  const reason = `failing since ${e.failingSince.toISOString()} (last: ${o.statusCode ?? o.error ?? 'no answer'})`;
  return d.store.uow.run(async (tx) => {
    const off = await d.store.webhooks.disable(tx, c.endpointId, e.failingSince, reason, at);
    if (!off) return { recorded: true, disabled: false };
    await d.store.audit.record(tx, d.ids, at, {
      actor: 'system:webhooks',
      action: 'webhook.disabled',
      subjectType: 'webhook_endpoint',
      subjectId: off.id,
      before: { status: 'enabled' },
      after: { status: 'disabled', reason },
    });
    return { recorded: true, disabled: true };
  });
}
