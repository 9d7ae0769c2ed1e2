import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../../store/index.ts';
import { QUEUES } from '../../store/queue-store.ts';
import type { Clock } from '../../domain/ports.ts';
import type { Tally, Venue } from '../../usecases/ports.ts';

/**
 * Prometheus metrics: the process defaults, request durations by route and status, and the business's
 * own: state transitions of orders and withdrawals and the desk's records, counted in process as
 * they commit (counters restart at 0 with the process, as Prometheus expects); the desk's queues and the
 * last reconciliation, read from the store at each scrape.
 */
export function createMetrics(store: Store, clock: Clock, venue?: Venue) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'cambio_http_request_duration_seconds',
    help: 'Duration of HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const transitions = {
    order: new Counter({
      name: 'cambio_order_transitions_total',
      help: 'Exchange requests that entered a state, by state',
      labelNames: ['to'] as const,
      registers: [registry],
    }),
    withdrawal: new Counter({
      name: 'cambio_withdrawal_transitions_total',
      help: 'Withdrawals that entered a state, by state',
      labelNames: ['to'] as const,
      registers: [registry],
    }),
  };
  const records = new Counter({
    name: 'cambio_desk_records_total',
    help: 'What the desk recorded (docs/design/money-and-states.md): fill, order_failure, payout, payout_failure',
    labelNames: ['what'] as const,
    registers: [registry],
  });
  const snapshotFailures = new Counter({
    name: 'cambio_liabilities_snapshot_failures_total',
    help: 'Daily liabilities snapshots that could not be taken, by error code (liabilities.total_too_large, unexpected)',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'cambio_queue_requests',
    help: 'Requests waiting for the desk, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const s = await store.queues.summary();
      for (const q of QUEUES) this.set({ queue: q }, s[q].count);
    },
  });
  new Gauge({
    name: 'cambio_queue_oldest_age_seconds',
    help: 'How long the oldest request of each queue has waited (0 when none waits)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const s = await store.queues.summary();
      const now = clock.now().getTime();
      for (const q of QUEUES) this.set({ queue: q }, s[q].oldestSince ? Math.max(0, (now - s[q].oldestSince.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'cambio_reconciled',
    help: '1 while the books agree with the market; 0 while client money movements are stopped',
    registers: [registry],
    async collect() {
      this.set((await store.reconciliation.state()).reconciled ? 1 : 0);
    },
  });
  new Gauge({
    name: 'cambio_reconciliation_difference_minor',
    help: "The last reconciliation run's market − books per asset, in minimum units (float: for alerting, not for money)",
    labelNames: ['asset'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const f of (await store.reconciliation.state()).lastRun?.figures ?? []) this.set({ asset: f.assetSymbol }, Number(f.difference));
    },
  });
  new Gauge({
    name: 'cambio_mail_outbox',
    help: 'Mail in the outbox by state: pending (to send or retry), failed (given up after its attempts), sent',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const c = await store.mail.counts();
      for (const state of ['pending', 'failed', 'sent'] as const) this.set({ state }, c[state]);
    },
  });
  if (venue?.health) {
    // Production at a CCXT venue (docs/market.md): the venue's health is a business metric.
    const health = venue.health.bind(venue);
    new Gauge({
      name: 'cambio_venue_book_age_seconds',
      help: 'Age of the held order book of each venue market, from the receipt of its answer',
      labelNames: ['market'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const [m, ms] of (await health()).bookAgesMs) this.set({ market: m }, ms / 1000);
      },
    });
    new Gauge({
      name: 'cambio_venue_orders_awaiting_outcome',
      help: 'Orders sent to the venue whose outcome is not known yet (looked up until it is)',
      registers: [registry],
      async collect() {
        this.set((await health()).awaitingOutcome);
      },
    });
    const latency = new Histogram({
      name: 'cambio_venue_execution_seconds',
      help: 'From sending an order to the venue to knowing its outcome (filled, refused or partly filled), lookups after a lost answer included',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300],
      registers: [registry],
    });
    venue.observeExecutions?.((seconds) => latency.observe(seconds));
    const seen = new Map<string, number>();
    new Counter({
      name: 'cambio_venue_errors_total',
      help: 'Failed venue requests by where (book, order, lookup, balances, deposits, markets) and CCXT error kind',
      labelNames: ['kind'] as const,
      registers: [registry],
      async collect() {
        for (const [kind, n] of (await health()).errors) {
          const more = n - (seen.get(kind) ?? 0);
          if (more > 0) this.inc({ kind }, more);
          seen.set(kind, n);
        }
      },
    });
  }
  const tally: Tally = {
    transition: (subject, to) => transitions[subject].inc({ to }),
    recorded: (what) => records.inc({ what }),
    snapshotFailed: (code) => snapshotFailures.inc({ code }),
  };
  return {
    registry,
    tally,
    /** Times every request; the route label is the route pattern, never the raw URL (bounded cardinality). */
    instrument(app: FastifyInstance) {
      // One labelled child per method, route and status, found by a string: no label object hashed per request.
      const children = new Map<string, { observe(v: number): void }>();
      app.addHook('onResponse', (req, reply, done) => {
        const route = req.routeOptions.url ?? 'unknown';
        const id = `${req.method} ${reply.statusCode} ${route}`;
        let child = children.get(id);
        if (child === undefined)
          children.set(id, (child = duration.labels({ method: req.method, route, status: String(reply.statusCode) })));
        child.observe(reply.elapsedTime / 1000);
        done();
      });
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
