import type { Rational } from '../domain/market/rational.ts';
import type { MarketPair } from '../domain/market/pair-terms.ts';
import type { Clock, Execution, ExecutionRequest, Ids, Market } from '../domain/ports.ts';
import type { Repositories, Tx } from './repositories.ts';

export type { Tx, UnitOfWork } from './repositories.ts';

/**
 * Where orders execute and where the platform's money sits (docs/design/money-and-states.md). Two adapters, chosen
 * once in main.ts: the simulated venue (sandbox: fills at once, pays out on approval, keeps its own
 * books) and the desk (production: staff execute at their venue and record the outcome). A use case
 * tells the venue what moved at the platform's account, inside the transaction that books it, so the
 * venue's books, when it keeps any, never disagree with the platform's.
 */
export interface Venue extends Market {
  /** simulated (sandbox), desk (production, staff execute) or ccxt (production at an exchange, docs/market.md). */
  readonly kind: 'simulated' | 'desk' | 'ccxt';
  /** Withdrawals complete on approval (sandbox); else they wait for the desk's payout reference. */
  readonly paysOutOnApproval: boolean;
  /** Where withdrawals pay out on approval: why this amount's payout fails (the sandbox's magic amount), or null when it is paid. */
  payoutFailure?(amount: bigint): string | null;
  pair(baseSymbol: string, quoteSymbol: string): Promise<MarketPair | null>;
  /**
   * Executes now, idempotent by order id (a repeat returns the first outcome, never trades twice); null
   * when a person executes it and records the fill or the failure (the desk), or when the outcome at a
   * real venue is not known yet (it is asked again later, never sent twice).
   */
  execute(r: ExecutionRequest): Promise<Execution | null>;
  /** Money arrived at (+) or left (−) the platform's account at the venue: a deposit, an adjustment, a payout. */
  fundsMoved(tx: Tx, assetSymbol: string, amount: bigint): Promise<void>;
  /** The settlement of this order's fill is being booked in `tx`: the venue's side of the same fill. */
  fillSettled(tx: Tx, orderId: string, at: Date): Promise<void>;
  /**
   * What the platform holds at the venue per asset, as of `tx` (call it before reading the books in the
   * same transaction: writers that move both wait, so both sides are one moment); null when only the
   * desk can say (it sends the balances with the reconciliation).
   */
  holdings(tx: Tx): Promise<Map<string, bigint> | null>;
  /** A real venue's health for the metrics: each book's age, its errors by kind so far, orders sent whose outcome is not known. */
  health?(): Promise<VenueHealth>;
  /**
   * Present when the venue itself sends crypto withdrawals (an exchange account through CCXT): an approved
   * withdrawal to a crypto address is sent there, once, and followed to its end (docs/market.md).
   */
  cryptoPayouts?: CryptoPayouts;
  /** Tells `listener` how long each order took from being sent to the venue to a known outcome, in seconds (a metric). */
  observeExecutions?(listener: (seconds: number) => void): void;
}

/** One approved withdrawal to a crypto address, as the venue sends it: the client receives exactly `amount`. */
export interface CryptoWithdrawalRequest {
  withdrawalId: string;
  assetSymbol: string;
  assetDecimals: number;
  amount: bigint;
  network: string;
  address: string;
  memo: string | null;
}

/**
 * How a crypto withdrawal ended at the venue: sent and confirmed with the chain's txid (`feeMinor` the
 * venue's network fee, the platform's cost, in the asset's minimum units, rounded up), or failed (nothing
 * left the venue).
 */
export type CryptoWithdrawalOutcome =
  { completed: true; txid: string; feeMinor: bigint; venue: string; venueReference: string } | { completed: false; reason: string };

/** What the desk sees of a crypto withdrawal at the venue. */
export interface CryptoWithdrawalView {
  venue: string;
  state: string;
  status: string | null;
  amount: string;
  fee: string;
  venueWithdrawalId: string | null;
  txid: string | null;
  reason: string | null;
  attempts: number;
}

export interface CryptoPayouts {
  /**
   * Sends the withdrawal once (idempotent by its id, the venue's withdraw order id) and reads how it
   * stands; null while it is not over (sent, processing, or an outcome not known yet: asked again later,
   * never sent twice).
   */
  send(r: CryptoWithdrawalRequest): Promise<CryptoWithdrawalOutcome | null>;
  /** Where each of these withdrawals stands at the venue (absent: never sent there). */
  views(withdrawalIds: string[]): Promise<Map<string, CryptoWithdrawalView>>;
}

export interface VenueHealth {
  bookAgesMs: Map<string, number>;
  errors: Map<string, number>;
  awaitingOutcome: number;
}

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

/** A deposit in the venue account's history (docs/market.md): recorded as an arrival once it is completed. */
export interface VenueDeposit {
  coin: string;
  network: string;
  amount: Rational;
  txid: string;
  completed: boolean;
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
