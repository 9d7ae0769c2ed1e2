import { DEFAULT_CLOCK_SKEW_MS, DEFAULT_TIMEOUT_MS, configError } from '../client.ts';
import { normalizeBaseUrl, Transport, type CambioEvent, type FetchLike } from '../http.ts';
import type { RetryOptions } from '../retry.ts';
import { BalancesResource } from '../resources/balances.ts';
import { ClientResource } from '../resources/client.ts';
import { DepositsResource } from '../resources/deposits.ts';
import { LedgerResource } from '../resources/ledger.ts';
import { OrdersResource } from '../resources/orders.ts';
import { QuotesResource } from '../resources/quotes.ts';
import { WebhooksResource } from '../resources/webhooks.ts';
import { WithdrawalsResource } from '../resources/withdrawals.ts';
import { PortalApiKeysResource } from './api-keys.ts';
import { PortalSessionResource } from './session.ts';
import { PortalTeamResource } from './team.ts';

export interface CambioPortalOptions {
  /** The service's own origin (in a browser: `location.origin`); `/api/v1` and `/portal/v1` are added. */
  baseUrl: string;
  /** `x-lang` of error messages: `en` or `es`. */
  lang?: string;
  /** Defaults to the global fetch (the browser's). */
  fetch?: FetchLike;
  retry?: RetryOptions;
  timeoutMs?: number;
  onEvent?: (e: CambioEvent) => void;
}

/**
 * A member signed in with a session cookie, as the portal is: the client API (`/api/v1`, with the
 * member's whole role) and the people endpoints (`/portal/v1`). No key: the browser sends the
 * `cambio_member` cookie (`credentials: 'same-origin'`), and the server checks the Origin of writes.
 */
export class CambioPortal {
  readonly client: ClientResource;
  readonly balances: BalancesResource;
  readonly ledger: LedgerResource;
  readonly quotes: QuotesResource;
  readonly orders: OrdersResource;
  readonly deposits: DepositsResource;
  readonly withdrawals: WithdrawalsResource;
  /** Webhook endpoints (permission `portal:webhooks`). */
  readonly webhooks: WebhooksResource;
  readonly session: PortalSessionResource;
  readonly team: PortalTeamResource;
  readonly apiKeys: PortalApiKeysResource;
  readonly baseUrl: string;

  constructor(opts: CambioPortalOptions) {
    const f = opts.fetch ?? (globalThis.fetch ? globalThis.fetch.bind(globalThis) as FetchLike : undefined);
    if (!f) throw configError('CambioPortal: no fetch available');
    this.baseUrl = normalizeBaseUrl(opts.baseUrl, '/api/v1', 'CambioPortal');
    const common = {
      baseUrl: this.baseUrl, authHeaders: {}, secrets: [], lang: opts.lang, fetch: f, credentials: 'same-origin' as const,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, retry: opts.retry ?? {}, onEvent: opts.onEvent,
    };
    const api = new Transport({ ...common, prefix: '/api/v1' });
    const people = new Transport({ ...common, prefix: '/portal/v1' });
    this.client = new ClientResource(api);
    this.balances = new BalancesResource(api);
    this.ledger = new LedgerResource(api);
    this.quotes = new QuotesResource(api);
    this.orders = new OrdersResource(api, DEFAULT_CLOCK_SKEW_MS);
    this.deposits = new DepositsResource(api);
    this.withdrawals = new WithdrawalsResource(api, DEFAULT_CLOCK_SKEW_MS);
    this.webhooks = new WebhooksResource(api);
    this.session = new PortalSessionResource(people);
    this.team = new PortalTeamResource(people);
    this.apiKeys = new PortalApiKeysResource(people);
  }
}
