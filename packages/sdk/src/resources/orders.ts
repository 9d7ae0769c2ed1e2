import type { OrderRecord, OrderState } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { ListParams, Page } from '../paginate.ts';
import { creationOf, foundReply, type Creation } from './creation.ts';
import { filterQuery, findCreatedSince, idPath, iterateList, listPage, type CreatedFilters } from './list.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

/**
 * An exchange request (docs/design/money-and-states.md): delivers `base`, receives `quote`; a request, not an execution,
 * until a person approves it. States: pending_approval → approved → completed | failed; or rejected.
 */
export type Order = Amounts<OrderRecord>;

/** Filters of `GET /api/v1/orders`. */
export interface OrderFilters extends CreatedFilters {
  state?: OrderState;
}

export class OrdersResource {
  constructor(
    private readonly t: Transport,
    private readonly clockSkewMs: number,
  ) {}

  /**
   * `POST /api/v1/orders`. Accepting a quote consumes it (spec: Repeated calls §3), so a lost response
   * is re-sent safely: a second acceptance creates nothing. After a lost attempt, any refusal of the
   * resend (410 already used, but also 409 not reconciled, 403, 422: the lost attempt may have gone
   * through before the refusal's cause) and the end of the retries make the SDK look the order up by
   * quoteId in `GET /orders`: found, it is returned with outcome `found_after_timeout`. That read needs
   * `portal:read`; when it fails, or finds nothing after the retries ran out, a LostResponseError says
   * the outcome is unknown.
   */
  async create(p: { quoteId: string }, opts: WriteOptions = {}): Promise<Creation<Order>> {
    const startedLocal = Date.now();
    const r = await this.t.request<Order>(
      { method: 'POST', path: '/orders', body: { quoteId: p.quoteId }, ...keyOf(opts) },
      {
        resendWhenUnknown: true,
        what: `order for quote ${p.quoteId}`,
        readBack: async () => {
          const o = await findCreatedSince(
            this.t,
            this.iterate({ limit: 100 }),
            startedLocal,
            this.clockSkewMs,
            (x) => x.quoteId === p.quoteId,
          );
          return o ? foundReply(o) : undefined;
        },
      },
    );
    return creationOf(r);
  }

  /** The order that accepted a quote, among those created since `since` (server clock, ms; newest first). */
  async findByQuoteId(quoteId: string, since = 0): Promise<Order | undefined> {
    for await (const o of this.iterate({ limit: 100 })) {
      if (o.quoteId === quoteId) return o;
      if (Date.parse(o.createdAt) < since) return undefined;
    }
    return undefined;
  }

  /** `GET /api/v1/orders/:id`: one order, to poll its state; another organization's id is a NotFoundError. */
  async get(id: string): Promise<Order> {
    return (await this.t.get<Order>(idPath('/orders', id))).data;
  }

  /**
   * `POST /api/v1/orders/:id/cancel`: an order still `pending_approval` becomes `cancelled` and its hold
   * is released; a decided one is a 409. Resent after a lost answer under the same Idempotency-Key, so
   * the server answers the first outcome again.
   */
  async cancel(id: string, opts: WriteOptions = {}): Promise<Order> {
    return (
      await this.t.request<Order>({ method: 'POST', path: idPath('/orders', id, '/cancel'), ...keyOf(opts) }, { resendWhenUnknown: true })
    ).value.data;
  }

  /** `GET /api/v1/orders`: one page, newest first, optionally filtered by state and creation time. */
  list(params: ListParams & OrderFilters = {}): Promise<Page<Order>> {
    return listPage<Order>(this.t, '/orders', params, filterQuery(params));
  }

  /** `for await (const o of cambio.orders.iterate())` walks every page (with the same filters as `list`). */
  iterate(opts: { limit?: number } & OrderFilters = {}): AsyncGenerator<Order, void, undefined> {
    return iterateList<Order>(this.t, '/orders', opts, filterQuery(opts));
  }
}
