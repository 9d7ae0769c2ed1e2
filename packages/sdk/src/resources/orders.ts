import type { OrderRecord } from '@cambio/contract';
import { GoneError } from '../errors.ts';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { ListParams, Page } from '../paginate.ts';
import { creationOf, foundReply, type Creation } from './creation.ts';
import { iterateList, listPage } from './list.ts';

/**
 * An exchange request (CONTRACT §5): delivers `base`, receives `quote`; a request, not an execution,
 * until a person approves it. States: pending_approval → approved → completed | failed; or rejected.
 */
export type Order = Amounts<OrderRecord>;

export class OrdersResource {
  constructor(private readonly t: Transport, private readonly clockSkewMs: number) {}

  /**
   * `POST /api/v1/orders`. Accepting a quote consumes it, so a lost response is re-sent safely: a
   * second acceptance creates nothing. When that resend answers 410 (already used), the order made by
   * the lost attempt is looked up by quoteId and returned with outcome `found_after_timeout`.
   */
  async create(p: { quoteId: string }): Promise<Creation<Order>> {
    const since = this.t.serverNow() - this.clockSkewMs;
    const r = await this.t.request<Order>({ method: 'POST', path: '/orders', body: { quoteId: p.quoteId } }, {
      resendWhenUnknown: true,
      afterRefusal: async (refusal) => {
        if (!(refusal instanceof GoneError)) return undefined;
        const o = await this.findByQuoteId(p.quoteId, since);
        return o ? foundReply(o) : undefined;
      },
    });
    return creationOf(r);
  }

  /** The order that accepted a quote, among those created since `since` (newest first). */
  async findByQuoteId(quoteId: string, since = 0): Promise<Order | undefined> {
    for await (const o of this.iterate({ limit: 100 })) {
      if (o.quoteId === quoteId) return o;
      if (Date.parse(o.createdAt) < since) return undefined;
    }
    return undefined;
  }

  /** `GET /api/v1/orders`: one page, newest first. */
  list(params: ListParams = {}): Promise<Page<Order>> {
    return listPage<Order>(this.t, '/orders', params);
  }

  /** `for await (const o of cambio.orders.iterate())` walks every page. */
  iterate(opts: { limit?: number } = {}): AsyncGenerator<Order, void, undefined> {
    return iterateList<Order>(this.t, '/orders', opts);
  }
}
