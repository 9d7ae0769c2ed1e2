// The order page reads one order's events (the list filtered by its id), oldest first: it stops at the
// order's final event, at the newest event, or at its bound, and says which.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CambioPortal, OrganizationEvent } from '@cambio/sdk';
import { orderEvents, stateAfter } from '../src/features/orders/order-events.ts';

/** An events resource over a fixed list, counting what the walk read. */
function fake(list: Array<[type: string, recordId: string]>) {
  const seen = { read: 0, asked: [] as unknown[] };
  const events = {
    async *iterate(params: unknown) {
      seen.asked.push(params);
      for (const [i, [type, id]] of list.entries()) {
        seen.read++;
        yield { id: `evt_${i}`, type, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), data: { id } } as OrganizationEvent;
      }
    },
  } as unknown as CambioPortal['events'];
  return { events, seen };
}

test("the order's events in order, the walk ending at its final event", async () => {
  const { events, seen } = fake([
    ['order.created', 'ord_a'],
    ['destination.registered', 'dst_1'],
    ['order.created', 'ord_b'],
    ['order.approved', 'ord_a'],
    ['order.completed', 'ord_a'],
    ['order.cancelled', 'ord_b'],
    ['order.created', 'ord_c'],
  ]);
  const r = await orderEvents(events, 'ord_a');
  assert.deepEqual(
    r.events.map((e) => e.type),
    ['order.created', 'order.approved', 'order.completed'],
  );
  assert.equal(r.complete, true);
  assert.equal(seen.read, 5, 'nothing is read after the final event');
  assert.deepEqual(r.events.map(stateAfter), ['pending_approval', 'approved', 'completed']);
  assert.deepEqual(seen.asked, [{ limit: 100, subjectId: 'ord_a' }], "only the order's own events are asked for");
});

test('an order still waiting: every event is read, up to the newest', async () => {
  const { events, seen } = fake([
    ['order.created', 'ord_a'],
    ['order.created', 'ord_b'],
    ['order.approved', 'ord_b'],
  ]);
  const r = await orderEvents(events, 'ord_a');
  assert.deepEqual([r.events.map((e) => e.id), r.complete, seen.read], [['evt_0'], true, 3]);
});

test('past the bound the walk stops and says the list may be incomplete', async () => {
  const { events, seen } = fake([
    ...Array.from({ length: 10 }, (_, i) => ['order.created', `ord_${i}`] as [string, string]),
    ['order.created', 'ord_late'],
  ]);
  const r = await orderEvents(events, 'ord_late', 10);
  assert.deepEqual([r.events, r.complete, seen.read], [[], false, 10]);
});
