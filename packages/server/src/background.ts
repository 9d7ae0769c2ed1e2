import type { AppDeps } from './deps.ts';
import type { BackgroundTask } from './background-task.ts';
import { DomainError } from './domain/errors.ts';
import { isStoreUnavailable } from './store/store-unavailable.ts';
import { announceUsableDestinations } from './usecases/destinations/announce-usable.ts';
import {
  MAIL_LOG_RETENTION_MS,
  purgeExpiredKeys,
  purgeExpiredQuotes,
  purgeFinishedDeliveries,
  purgeFinishedMail,
  QUOTE_RETENTION_MS,
  WEBHOOK_LOG_RETENTION_MS,
} from './usecases/retention/purge-expired.ts';
import { expireDeclarations } from './usecases/deposits/expire-declarations.ts';
import { recoverApproved } from './usecases/orders/execute-approved.ts';
import { recoverCryptoWithdrawals } from './usecases/withdrawals/send-crypto.ts';
import { appendJournalLog } from './usecases/transparency/append-log.ts';
import { sendToWitnesses } from './usecases/transparency/send-to-witnesses.ts';
import { takeDailySnapshot } from './usecases/transparency/take-snapshot.ts';
import { dispatchWebhooks } from './usecases/webhooks/deliver-due.ts';
import { deliverDueMail } from './usecases/mail/outbox.ts';
import { mailNotifications } from './usecases/mail/notify.ts';
import { webhookSenderOf } from './webhooks/http-sender.ts';
import { sandboxDecisionsTask } from './sandbox-task.ts';
import { pollVenueBooksTask, pollVenueDepositsTask, refreshVenueWalletsTask } from './venue-tasks.ts';

export type { BackgroundTask };

export { MAIL_LOG_RETENTION_MS, QUOTE_RETENTION_MS, WEBHOOK_LOG_RETENTION_MS };

/** Settles orders a crash left between approval and settlement (also soon after a restart): the simulated venue and a CCXT venue; the desk's orders wait for staff. */
const recoverApprovedOrdersTask: BackgroundTask = {
  name: 'recover-approved-orders',
  everyMs: (deps) => (deps.config.recoveryGraceMs >= 30_000 ? 15_000 : Math.trunc(deps.config.recoveryGraceMs / 2)),
  run: async (deps) => {
    const settled = await recoverApproved(deps, deps.config.recoveryGraceMs, (orderId, err) =>
      deps.logger?.error({ err, orderId }, 'could not settle an order left approved; will retry'),
    );
    for (const o of settled) deps.logger?.warn({ orderId: o.id, state: o.state }, 'recovered an order left approved');
  },
};

/**
 * Follows approved withdrawals to crypto addresses at a venue that sends them itself (docs/market.md):
 * each is looked up by its id until the venue says how it ended; one whose sending a crash interrupted
 * is never sent twice. Nothing to do under the desk or the simulated venue.
 */
const followCryptoWithdrawalsTask: BackgroundTask = {
  name: 'follow-crypto-withdrawals',
  everyMs: 2_000,
  run: async (deps) => {
    const settled = await recoverCryptoWithdrawals(deps, (withdrawalId, err) =>
      deps.logger?.error({ err, withdrawalId }, 'could not follow a crypto withdrawal at the venue; will retry'),
    );
    for (const w of settled) deps.logger?.info({ withdrawalId: w.id, state: w.state }, 'crypto withdrawal ended at the venue');
  },
};

/** Capabilities add their tasks here. */
export const backgroundTasks: BackgroundTask[] = [
  // An expired declaration is closed whether or not anything reads it (it frees its amount too).
  {
    name: 'expire-declarations',
    everyMs: 5_000,
    run: async (d) => {
      await expireDeclarations(d);
    },
  },
  recoverApprovedOrdersTask,
  // Sandbox: magic amounts are decided by the platform itself, after the request committed (docs/sandbox.md).
  sandboxDecisionsTask,
  followCryptoWithdrawalsTask,
  // Production at a CCXT venue: the books quoted lately are read again every second.
  pollVenueBooksTask,
  // ... and its completed deposits are recorded as arrivals, once per txid.
  pollVenueDepositsTask,
  refreshVenueWalletsTask,
  // Quotes nobody accepted are purged a day (and a key's lease) after they expire; a late acceptance still answers 410 (quote-id.ts).
  {
    name: 'purge-quotes',
    everyMs: 60_000,
    run: async (d) => {
      await purgeExpiredQuotes(d);
    },
  },
  // A destination becomes usable when its cooldown runs out: no write marks that moment, so this emits its event.
  {
    name: 'destination-usable-events',
    everyMs: 5_000,
    run: async (d) => {
      await announceUsableDestinations(d);
    },
  },
  // Idempotency-Key answers are kept 24 h after they were given (docs/api-guide.md), then forgotten.
  {
    name: 'purge-idempotency-keys',
    everyMs: 60_000,
    run: async (d) => {
      await purgeExpiredKeys(d);
    },
  },
  // The journal log (docs/transparency.md): committed entries join it within seconds, a checkpoint signed after each batch.
  {
    name: 'append-journal-log',
    everyMs: 1_000,
    run: async (d) => {
      await appendJournalLog(d);
    },
  },
  // Witnesses (docs/transparency.md): the latest checkpoint goes to every witness that has not cosigned it, outside any transaction.
  {
    name: 'send-checkpoints-to-witnesses',
    everyMs: 1_000,
    run: async (d) => {
      if (d.config.witnesses.length > 0) await sendToWitnesses(d);
    },
  },
  // Proof of liabilities (docs/transparency.md): a snapshot a day, from 00:00 UTC; the day is unique in the store, so one instance
  // takes it. One that cannot be taken (a total past 2^256 − 1) is an alert: an error logged and a metric, at every try.
  {
    name: 'daily-liabilities-snapshot',
    everyMs: 60_000,
    run: async (d) => {
      try {
        await takeDailySnapshot(d);
      } catch (err) {
        if (isStoreUnavailable(err)) throw err;
        const code = err instanceof DomainError ? err.code : 'unexpected';
        d.tally?.snapshotFailed?.(code);
        d.logger?.error(
          { err, code, ...(err instanceof DomainError ? err.params : {}) },
          'the daily liabilities snapshot could not be taken',
        );
      }
    },
  },
  // Webhook deliveries (docs/api-guide.md): state in the store, claims with SKIP LOCKED, so any number of instances run it.
  // A run keeps attempts going (a few per endpoint, so a slow receiver holds back only its own) until the
  // service stops: it claims as soon as a commit that may have written events nudges it (this instance's, or
  // another's through the store), and polls every 100 ms for retries coming due and events nobody nudged for.
  // A run the store ended (it did not answer) is started again at the next tick.
  {
    name: 'deliver-webhooks',
    everyMs: 200,
    run: async (d, signal) => {
      await dispatchWebhooks(d, {
        sender: webhookSenderOf(d),
        leaseMs: d.config.webhookLeaseMs,
        inFlight: 256,
        perEndpoint: 16,
        pollMs: 100,
        signal,
        wakes: d.store.webhooks.wakes,
        // Its claims and outcomes do not queue behind the requests (the store's worker lane).
        workerLane: true,
      });
    },
  },
  // Mail (when a sender is set): decisions and credits become outbox rows after they committed; the outbox
  // is sent, retried and given up after a while, never inside a request.
  {
    name: 'mail-notifications',
    everyMs: 1_000,
    run: async (d) => {
      await mailNotifications({ ...d, publicUrl: d.config.publicUrl });
    },
  },
  {
    name: 'deliver-mail',
    everyMs: 500,
    run: async (d) => {
      await deliverDueMail(d);
    },
  },
  // The outbox keeps what was sent or given up 30 days, for the operator to look at; then it is forgotten.
  {
    name: 'purge-mail',
    everyMs: 3_600_000,
    run: async (d) => {
      await purgeFinishedMail(d);
    },
  },
  // PGlite runs no autovacuum: dead rows of consumed and purged quotes and the planner's statistics are looked after here.
  {
    name: 'maintain-embedded-store',
    everyMs: 600_000,
    run: async (d) => {
      await d.store.maintain();
    },
  },
  // The delivery log is kept 30 days after a delivery finished (pending ones are never purged).
  {
    name: 'purge-webhook-deliveries',
    everyMs: 3_600_000,
    run: async (d) => {
      await purgeFinishedDeliveries(d);
    },
  },
];

/**
 * Runs each task every `everyMs` (never two runs of one task at once); a run that finds no store pauses
 * the task until a later run finds it again. The returned stop clears the
 * timers and resolves once every run in flight has finished, so the store is closed under no task.
 */
export function startBackground(deps: AppDeps, tasks: readonly BackgroundTask[] = backgroundTasks): () => Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();
  let stopped = false;
  const timers = tasks.map((t) => {
    let running = false;
    // While no primary answers, a task's runs fail at once and it tries again at its next tick: said once
    // when it pauses and once when it resumes, not at every tick.
    let paused = false;
    const timer = setInterval(
      () => {
        if (running || stopped) return;
        running = true;
        const run = t
          .run(deps, stopping.signal)
          .then(
            () => {
              if (paused) deps.logger?.info(`background task ${t.name} resumed: the store answers again`);
              paused = false;
            },
            (err: unknown) => {
              if (!isStoreUnavailable(err)) return deps.logger?.error({ err }, `background task ${t.name} failed`);
              if (!paused)
                deps.logger?.warn({ detail: (err as Error).message }, `background task ${t.name} paused: the store does not answer`);
              paused = true;
            },
          )
          .finally(() => {
            running = false;
            inFlight.delete(run);
          });
        inFlight.add(run);
      },
      typeof t.everyMs === 'function' ? t.everyMs(deps) : t.everyMs,
    );
    timer.unref();
    return timer;
  });
  return async () => {
    stopped = true;
    stopping.abort();
    timers.forEach(clearInterval);
    await Promise.allSettled([...inFlight]);
  };
}
