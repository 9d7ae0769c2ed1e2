import type {
  OperatorDestination as WireDestination,
  OperatorOrderDetail as WireOrderDetail,
  OperatorOrderRecord,
  OperatorWithdrawal as WireWithdrawal,
} from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { Page } from '../paginate.ts';
import { iterateList, listPage } from '../resources/list.ts';
import { enc } from './organizations.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

/** Adds the organization and what the venue paid (`proceedsQuoteMinor`; the difference is revenue). */
export type OperatorOrder = Amounts<OperatorOrderRecord>;
/** One order with what each connected venue offered when it was quoted, and the one it took (docs/market.md, best execution). */
export type OperatorOrderDetail = Amounts<WireOrderDetail>;
export type OperatorWithdrawal = Amounts<WireWithdrawal>;
export type OperatorDestination = WireDestination;
export interface RequestQuery {
  state?: string;
  organizationId?: string;
  page?: number;
  limit?: number;
}
/**
 * `idempotencyKey`: one per decision a person confirms (docs/api-guide.md), so a double click or a re-sent
 * request after a lost answer acts once. Without it a second decision is still refused with a 409.
 */
export type DecisionOptions = WriteOptions;

/**
 * Requests across organizations and the decisions on them. A decision happens once: a second one is a
 * 409 (`…already_decided`), so a lost response is safely re-sent and its 409 read as "decided".
 */
class Decisions<T> {
  constructor(
    protected readonly t: Transport,
    private readonly base: string,
  ) {}

  list(q: RequestQuery = {}): Promise<Page<T>> {
    return listPage<T>(this.t, this.base, q, { state: q.state, organizationId: q.organizationId });
  }

  iterate(q: { state?: string; organizationId?: string; limit?: number } = {}): AsyncGenerator<T, void, undefined> {
    return iterateList<T>(this.t, this.base, q, { state: q.state, organizationId: q.organizationId });
  }

  /** With four-eyes the first of two approvals answers the record still `pending_approval`, one approval listed. */
  async approve(id: string, reason?: string, opts: DecisionOptions = {}): Promise<T> {
    return this.decide(id, 'approve', reason ? { reason } : {}, opts);
  }

  async reject(id: string, reason?: string, opts: DecisionOptions = {}): Promise<T> {
    return this.decide(id, 'reject', reason ? { reason } : {}, opts);
  }

  /** Production (docs/design/money-and-states.md): the approved request did not happen at the venue or the bank; the hold is released. */
  async fail(id: string, reason: string, opts: DecisionOptions = {}): Promise<T> {
    return this.decide(id, 'fail', { reason }, opts);
  }

  protected async decide(id: string, verb: string, body: object, opts: DecisionOptions): Promise<T> {
    const headers = opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : undefined;
    return (
      await this.t.request<T>(
        { method: 'POST', path: `${this.base}/${enc(id)}/${verb}`, body, ...(headers ? { headers } : {}) },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }
}

/** Approve: executes at the market and settles; reject: releases the hold. */
export class OperatorOrders extends Decisions<OperatorOrder> {
  constructor(t: Transport) {
    super(t, '/orders');
  }

  /** One order; `offers`: what each venue offered at quote time, in listed order, `chosen` on the one it took. */
  async get(id: string): Promise<OperatorOrderDetail> {
    return (await this.t.get<OperatorOrderDetail>(`/orders/${enc(id)}`)).data;
  }

  /**
   * Production (docs/design/money-and-states.md): staff record what the venue paid for an approved order; it completes,
   * the client receives the quoted amount and the difference to the proceeds is the platform's.
   */
  async fill(
    id: string,
    p: { venue: string; venueReference: string; proceedsQuoteMinor: bigint },
    opts: DecisionOptions = {},
  ): Promise<OperatorOrder> {
    return this.decide(id, 'fill', p, opts);
  }
}

/** Approve: the amount leaves (hold consumed); reject: releases the hold. */
export class OperatorWithdrawals extends Decisions<OperatorWithdrawal> {
  constructor(t: Transport) {
    super(t, '/withdrawals');
  }

  /** Production (docs/design/money-and-states.md): the bank's reference of the payout of an approved withdrawal; it completes. */
  async payout(id: string, p: { payoutReference: string; txid?: string }, opts: DecisionOptions = {}): Promise<OperatorWithdrawal> {
    return this.decide(id, 'payout', p, opts);
  }
}

export class OperatorDestinations {
  constructor(private readonly t: Transport) {}

  /** Records that the destination is registered in the market; with the cooldown passed it becomes usable. */
  async registerInMarket(id: string, opts: WriteOptions = {}): Promise<OperatorDestination> {
    return (
      await this.t.request<OperatorDestination>(
        { method: 'POST', path: `/destinations/${enc(id)}/register-in-market`, ...keyOf(opts) },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }

  /**
   * The full account number, for an approver or admin, confirmed with a fresh code of their own
   * authenticator app (step-up) and recorded in the audit trail; 403 without it or with a wrong code.
   */
  async reveal(id: string, p: { code: string }): Promise<{ id: string; organizationId: string; accountNumber: string }> {
    // A code serves once: a lost answer is not re-sent (the person types the next code).
    return (
      await this.t.request<{ id: string; organizationId: string; accountNumber: string }>(
        { method: 'POST', path: `/destinations/${enc(id)}/reveal`, body: p },
        { resendWhenUnknown: false },
      )
    ).value.data;
  }

  list(q: { page?: number; limit?: number; organizationId?: string } = {}): Promise<Page<OperatorDestination>> {
    return listPage<OperatorDestination>(this.t, '/destinations', q, { organizationId: q.organizationId });
  }
}
