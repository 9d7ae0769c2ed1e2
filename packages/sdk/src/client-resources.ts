import type { Transport } from './http.ts';
import { BalancesResource } from './resources/balances.ts';
import { ClientResource } from './resources/client.ts';
import { DepositsResource } from './resources/deposits.ts';
import { EventsResource } from './resources/events.ts';
import { LedgerResource } from './resources/ledger.ts';
import { MarketResource } from './resources/market.ts';
import { OrdersResource } from './resources/orders.ts';
import { QuotesResource } from './resources/quotes.ts';
import { SandboxResource } from './resources/sandbox.ts';
import { TransparencyResource } from './resources/transparency.ts';
import { StatementsResource, ValuationResource } from './resources/treasury.ts';
import { WebhooksResource } from './resources/webhooks.ts';
import { DestinationsResource, WithdrawalsResource } from './resources/withdrawals.ts';

/**
 * The client API at /api/v1, one resource per group of endpoints, on one transport: what a program
 * with a key (`Cambio`) and a member signed in to the portal (`CambioPortal`) both call.
 */
export class ClientApiResources {
  readonly client: ClientResource;
  readonly balances: BalancesResource;
  readonly ledger: LedgerResource;
  readonly market: MarketResource;
  readonly quotes: QuotesResource;
  readonly orders: OrdersResource;
  readonly deposits: DepositsResource;
  readonly withdrawals: WithdrawalsResource;
  readonly destinations: DestinationsResource;
  /** The organization's events, oldest first after a cursor (`portal:read`): what webhooks deliver, read on demand. */
  readonly events: EventsResource;
  /** Webhook endpoints (key scope or member permission `portal:webhooks`); `verifyWebhook` checks what they receive. */
  readonly webhooks: WebhooksResource;
  /** The public books: checkpoints, inclusion proofs and liabilities, each checked on the client. */
  readonly transparency: TransparencyResource;
  /** Sandbox only (404 in production): simulated arrivals at the deposit wallets. */
  readonly sandbox: SandboxResource;
  /** The balances valued in the organization's reporting currency, and their daily history (`portal:read`). */
  readonly valuation: ValuationResource;
  /** Monthly statements of one asset, CSV or PDF (`portal:read`). */
  readonly statements: StatementsResource;

  constructor(t: Transport, clockSkewMs: number) {
    this.client = new ClientResource(t);
    this.balances = new BalancesResource(t);
    this.ledger = new LedgerResource(t);
    this.market = new MarketResource(t);
    this.quotes = new QuotesResource(t);
    this.orders = new OrdersResource(t, clockSkewMs);
    this.deposits = new DepositsResource(t);
    this.withdrawals = new WithdrawalsResource(t, clockSkewMs);
    this.destinations = new DestinationsResource(this.withdrawals);
    this.events = new EventsResource(t);
    this.webhooks = new WebhooksResource(t);
    this.transparency = new TransparencyResource(t);
    this.sandbox = new SandboxResource(t);
    this.valuation = new ValuationResource(t);
    this.statements = new StatementsResource(t);
  }
}
