import type { OperatorDestination as WireDestination, OperatorOrderRecord, OperatorWithdrawal as WireWithdrawal } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { Page } from '../paginate.ts';
import { iterateList, listPage } from '../resources/list.ts';
import { enc } from './organizations.ts';

/** Adds the organization and what the venue paid (`proceedsQuoteMinor`; the difference is revenue). */
export type OperatorOrder = Amounts<OperatorOrderRecord>;
export type OperatorWithdrawal = Amounts<WireWithdrawal>;
export type OperatorDestination = WireDestination;
export interface RequestQuery { state?: string; page?: number; limit?: number }

/**
 * Requests across organizations and the decisions on them. A decision happens once: a second one is a
 * 409 (`…already_decided`), so a lost response is safely re-sent and its 409 read as "decided".
 */
class Decisions<T> {
  constructor(protected readonly t: Transport, private readonly base: string) {}

  list(q: RequestQuery = {}): Promise<Page<T>> {
    return listPage<T>(this.t, this.base, q, { state: q.state });
  }

  iterate(q: { state?: string; limit?: number } = {}): AsyncGenerator<T, void, undefined> {
    return iterateList<T>(this.t, this.base, q, { state: q.state });
  }

  async approve(id: string, reason?: string): Promise<T> {
    return this.decide(id, 'approve', reason);
  }

  async reject(id: string, reason?: string): Promise<T> {
    return this.decide(id, 'reject', reason);
  }

  private async decide(id: string, verb: 'approve' | 'reject', reason?: string): Promise<T> {
    const body = reason ? { reason } : {};
    return (await this.t.request<T>({ method: 'POST', path: `${this.base}/${enc(id)}/${verb}`, body }, { resendWhenUnknown: true })).value.data;
  }
}

/** Approve: executes at the market and settles; reject: releases the hold. */
export class OperatorOrders extends Decisions<OperatorOrder> {
  constructor(t: Transport) { super(t, '/orders'); }
}

/** Approve: the amount leaves (hold consumed); reject: releases the hold. */
export class OperatorWithdrawals extends Decisions<OperatorWithdrawal> {
  constructor(t: Transport) { super(t, '/withdrawals'); }
}

export class OperatorDestinations {
  constructor(private readonly t: Transport) {}

  /** Records that the destination is registered in the market; with the cooldown passed it becomes usable. */
  async registerInMarket(id: string): Promise<OperatorDestination> {
    return (await this.t.request<OperatorDestination>({ method: 'POST', path: `/destinations/${enc(id)}/register-in-market` }, { resendWhenUnknown: true })).value.data;
  }

  list(q: { page?: number; limit?: number; organizationId?: string } = {}): Promise<Page<OperatorDestination>> {
    return listPage<OperatorDestination>(this.t, '/destinations', q, { organizationId: q.organizationId });
  }
}
