import type { Clock } from '../../domain/ports.ts';
import { IDEMPOTENCY_KEPT_MS } from '../../domain/idempotency/retention.ts';
import type { Repositories } from '../repositories.ts';

/**
 * How long after its expiry an unaccepted quote is kept: as long as an Idempotency-Key. A keyed quote's kept
 * answer names the quote and lives IDEMPOTENCY_KEPT_MS from its claim, made before the quote, so the quote it
 * names outlives it.
 */
export const QUOTE_RETENTION_MS = IDEMPOTENCY_KEPT_MS;
/** The webhook delivery log is kept this long after a delivery finished (pending ones are never purged). */
export const WEBHOOK_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** The mail outbox keeps what was sent or given up this long, for the operator to look at. */
export const MAIL_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

type RetentionDeps = { store: Pick<Repositories, 'quotes' | 'idempotency' | 'mail' | 'webhooks'>; clock: Clock };
const ago = (d: RetentionDeps, ms: number) => new Date(d.clock.now().getTime() - ms);

/** Quotes nobody accepted, QUOTE_RETENTION_MS after they expired; a late acceptance still answers 410 (quote-id.ts). */
export const purgeExpiredQuotes = (d: RetentionDeps) => d.store.quotes.purgeExpired(ago(d, QUOTE_RETENTION_MS));
/** Idempotency-Key answers, kept 24 hours after they were given, then forgotten. */
export const purgeExpiredKeys = (d: RetentionDeps) => d.store.idempotency.purgeExpired();
export const purgeFinishedMail = (d: RetentionDeps) => d.store.mail.purgeFinished(ago(d, MAIL_LOG_RETENTION_MS));
export const purgeFinishedDeliveries = (d: RetentionDeps) => d.store.webhooks.purgeFinished(ago(d, WEBHOOK_LOG_RETENTION_MS));
