import type { CambioPortal, OrganizationEvent } from '@cambio/sdk';

/**
 * How many events the order page reads, at most: it asks for the order's own (`subjectId`), a handful,
 * so the bound only guards against a server that ignores the filter.
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
 * The events of one order (the events list filtered by its id), kept when their record is the order. The
 * walk stops at the order's final event (nothing follows it), at the newest event, or after EVENTS_READ_AT_MOST.
 */
export async function orderEvents(events: CambioPortal['events'], orderId: string, readAtMost = EVENTS_READ_AT_MOST): Promise<OrderEvents> {
  const found: OrganizationEvent[] = [];
  let read = 0;
  for await (const e of events.iterate({ limit: 100, subjectId: orderId })) {
    if (e.type.startsWith('order.') && e.data.id === orderId) {
      found.push(e);
      if (FINAL.has(e.type)) return { events: found, complete: true };
    }
    if (++read >= readAtMost) return { events: found, complete: false };
  }
  return { events: found, complete: true };
}

/** The state an event of an order leaves it in (`order.approved` → `approved`). */
export const stateAfter = (e: OrganizationEvent): string =>
  e.type === 'order.created' ? 'pending_approval' : e.type.slice('order.'.length);
