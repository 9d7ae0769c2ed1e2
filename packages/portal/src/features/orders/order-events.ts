import type { CambioPortal, OrganizationEvent } from '@cambio/sdk';

/**
 * How many of the organization's events the order page reads, at most, to find one order's: the events
 * list has no filter by record and runs oldest first, so a page walk is the only way, and it is bounded
 * to keep the page quick (20 requests of 100).
 */
export const EVENTS_READ_AT_MOST = 2000;

const FINAL = new Set(['order.completed', 'order.rejected', 'order.failed', 'order.cancelled']);

export interface OrderEvents {
  /** The order's events, oldest first. */
  events: OrganizationEvent[];
  /** False when the walk stopped at the bound before the order's final event or the newest event. */
  complete: boolean;
}

/**
 * The events of one order, read from the organization's first event on, kept when their record is the
 * order. The walk stops at the order's final event (nothing follows it), at the newest event, or after
 * EVENTS_READ_AT_MOST events.
 */
export async function orderEvents(events: CambioPortal['events'], orderId: string, readAtMost = EVENTS_READ_AT_MOST): Promise<OrderEvents> {
  const found: OrganizationEvent[] = [];
  let read = 0;
  for await (const e of events.iterate({ limit: 100 })) {
    if (e.type.startsWith('order.') && e.data.id === orderId) {
      found.push(e);
      if (FINAL.has(e.type)) return { events: found, complete: true };
    }
    if (++read >= readAtMost) return { events: found, complete: false };
  }
  return { events: found, complete: true };
}

/** The state an event of an order leaves it in (`order.approved` → `approved`). */
export const stateAfter = (e: OrganizationEvent): string => (e.type === 'order.created' ? 'pending_approval' : e.type.slice('order.'.length));
