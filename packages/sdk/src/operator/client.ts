import { configError, DEFAULT_TIMEOUT_MS, resolveRoot } from '../client.ts';
import { normalizeBaseUrl, Transport, type CambioEvent, type FetchLike } from '../http.ts';
import type { RetryOptions } from '../retry.ts';
import { OperatorDeposits } from './deposits.ts';
import { OperatorMarket, OperatorWallets } from './market.ts';
import { OperatorKeys, OperatorMembers, OperatorOrganizations } from './organizations.ts';
import { OperatorAudit, OperatorReconciliation } from './reconciliation.ts';
import { OperatorQueue } from './queue.ts';
import { OperatorLiabilities } from './liabilities.ts';
import { OperatorDestinations, OperatorOrders, OperatorWithdrawals } from './requests.ts';
import { OperatorPolicies } from './policies.ts';
import { OperatorSession } from './session.ts';
import { OperatorStaff, OperatorTokens } from './staff.ts';
import { OperatorVenue } from './venue.ts';

export interface CambioOperatorOptions {
  /**
   * `OPERATOR_TOKEN` or a staff person's own token (`ops_…`); sent as `Authorization: Bearer …`,
   * redacted from every error. Leave it out with `session: true`.
   */
  token?: string;
  /**
   * In a browser at the desk: the staff session cookie (`cambio_staff`, set by `session.signIn`) is the
   * credential; requests go with `credentials: 'same-origin'` and no token.
   */
  session?: boolean;
  /** Root of the service; give this or `sandbox: true`, not both. */
  baseUrl?: string;
  /** The local sandbox started by `npm start` (http://127.0.0.1:8080). */
  sandbox?: boolean;
  /** With the bootstrap OPERATOR_TOKEN: recorded in the audit trail as `bootstrap:<name>` (`X-Operator`). */
  operatorName?: string;
  lang?: string;
  fetch?: FetchLike;
  retry?: RetryOptions;
  timeoutMs?: number;
  onEvent?: (e: CambioEvent) => void;
}

/** The operator API at /operator/v1: everything "a person at the operator" does (docs/operator-guide.md). */
export class CambioOperator {
  readonly organizations: OperatorOrganizations;
  readonly members: OperatorMembers;
  readonly keys: OperatorKeys;
  readonly market: OperatorMarket;
  readonly wallets: OperatorWallets;
  readonly orders: OperatorOrders;
  readonly withdrawals: OperatorWithdrawals;
  readonly destinations: OperatorDestinations;
  readonly deposits: OperatorDeposits;
  readonly reconciliation: OperatorReconciliation;
  /** Proof of liabilities: snapshots and their published roots and totals. */
  readonly liabilities: OperatorLiabilities;
  readonly audit: OperatorAudit;
  readonly session: OperatorSession;
  readonly staff: OperatorStaff;
  readonly tokens: OperatorTokens;
  readonly policies: OperatorPolicies;
  readonly venue: OperatorVenue;
  readonly queue: OperatorQueue;
  readonly baseUrl: string;

  constructor(opts: CambioOperatorOptions) {
    if (!opts) throw configError('CambioOperator: give a token, or session: true in a signed-in browser');
    const hasToken = typeof opts.token === 'string' && opts.token.trim() !== '';
    if (opts.session && opts.token !== undefined) throw configError('CambioOperator: give a token or session: true, not both');
    if (!opts.session && !hasToken) throw configError('CambioOperator: token is required (or session: true in a signed-in browser)');
    const root = resolveRoot('CambioOperator', opts);
    // Bound: a browser's fetch called as a method of another object throws "Illegal invocation".
    const f = opts.fetch ?? (globalThis.fetch ? (globalThis.fetch.bind(globalThis) as FetchLike) : undefined);
    if (!f) throw configError('CambioOperator: no fetch available');
    this.baseUrl = normalizeBaseUrl(root, '/operator/v1', 'CambioOperator');
    const auth: Record<string, string> = {};
    const secrets: string[] = [];
    if (hasToken) {
      const token = opts.token!.trim();
      auth.authorization = `Bearer ${token}`;
      secrets.push(token);
    }
    if (opts.operatorName) auth['x-operator'] = opts.operatorName;
    const t = new Transport({
      baseUrl: this.baseUrl,
      prefix: '/operator/v1',
      authHeaders: auth,
      secrets,
      lang: opts.lang,
      fetch: f,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: opts.retry ?? {},
      onEvent: opts.onEvent,
      ...(opts.session ? { credentials: 'same-origin' as const } : {}),
    });
    this.organizations = new OperatorOrganizations(t);
    this.members = new OperatorMembers(t);
    this.keys = new OperatorKeys(t);
    this.market = new OperatorMarket(t);
    this.wallets = new OperatorWallets(t);
    this.orders = new OperatorOrders(t);
    this.withdrawals = new OperatorWithdrawals(t);
    this.destinations = new OperatorDestinations(t);
    this.deposits = new OperatorDeposits(t);
    this.reconciliation = new OperatorReconciliation(t);
    this.liabilities = new OperatorLiabilities(t);
    this.audit = new OperatorAudit(t);
    this.session = new OperatorSession(t);
    this.staff = new OperatorStaff(t);
    this.tokens = new OperatorTokens(t);
    this.policies = new OperatorPolicies(t);
    this.venue = new OperatorVenue(t);
    this.queue = new OperatorQueue(t);
  }
}
