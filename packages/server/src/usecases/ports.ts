import type { Clock, Ids } from '../domain/ports.ts';
import type { Repositories } from './repositories.ts';
import type { Venue } from './venue-port.ts';

export type { Tx, UnitOfWork } from './repositories.ts';
export type * from './venue-port.ts';

/**
 * What the business did, counted for the operator's metrics (/operator/v1/metrics). Told after the
 * change committed, so a rolled-back change is never counted; absent, nothing is counted.
 */
export interface Tally {
  /** An exchange request or a withdrawal entered this state. */
  transition(subject: 'order' | 'withdrawal', to: string): void;
  /** The desk recorded an execution (fill or failure) or a payout (payout or failure), docs/design/money-and-states.md. */
  recorded(what: 'fill' | 'order_failure' | 'payout' | 'payout_failure'): void;
  /** The daily liabilities snapshot could not be taken (its error code, or `unexpected`). */
  snapshotFailed?(code: string): void;
}

/** What every use case works with. */
export interface UseCaseDeps {
  store: Repositories;
  venue: Venue;
  clock: Clock;
  ids: Ids;
  tally?: Tally | undefined;
}

/** One webhook attempt to send: POST `body` to `url` with `headers`, answered within `timeoutMs`. */
/** `endpointId`: whose connections carry it (an endpoint's are its own, so a slow one holds up no other on its host). */
export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  endpointId?: string | undefined;
  /** Read the answer's body and give its first this many characters (a test event shows them); absent, the body is only drained. */
  excerptChars?: number | undefined;
}
/** The receiver's status code, or why there is none (refused address, DNS, connection, timeout). */
export type WebhookAnswer =
  { statusCode: number; error?: undefined; excerpt?: string } | { statusCode?: undefined; error: string; excerpt?: undefined };
/** Sends webhook attempts (webhooks/http-sender.ts). */
export interface WebhookSender {
  post(p: WebhookPost): Promise<WebhookAnswer>;
}
/** Nudges that deliveries may have become due (store/webhook-wakes.ts): `count` so far, and a listener for the next. */
export interface WebhookWakeSource {
  readonly count: number;
  subscribe(l: () => void): () => void;
}

/** One mail: plain text and HTML of the same words, in the language of the person it goes to. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}
/**
 * Sends mail (mail/smtp-sender.ts: nodemailer over CAMBIO_SMTP_URL), chosen once in main.ts; absent, no
 * mail is sent and the apps show links as they did. Resolves once the server took the message; rejects
 * otherwise (the outbox retries it).
 */
export interface MailSender {
  send(m: OutgoingMail): Promise<void>;
}
