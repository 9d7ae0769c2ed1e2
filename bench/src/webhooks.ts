import { percentile, runLoad, type Shot } from './load.ts';
import type { StoreKind } from './report.ts';
import type { ScenarioRunner } from './scenarios.ts';
import { OPERATOR_HEADERS, QUOTE, type BenchOrg } from './seed.ts';
import type { Receivers } from './webhook-receivers.ts';
import { type Behaviour } from './webhook-receivers.ts';

/** One measured run: a number of healthy endpoints, with or without the slow and the failing receiver. */
export interface WebhooksRun {
  store: StoreKind;
  endpoints: number;
  withBadReceivers: boolean;
  /** Events written per second in the measured window (six per order and withdrawal taken through approval). */
  eventsPerSec: number;
  /** Requests answered per second in that window: creations and approvals. */
  requestsPerSec: number;
  /** Created and approved over the run, warm-up included. */
  requests: { orders: number; withdrawals: number; approvals: number };
  deliveriesPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest first arrival (ms after its commit). */
  maxMs: number;
  /**
   * The earlier measure of deliveriesPerSec: every first arrival over the span from before the warm-up to
   * the last arrival. That span holds the warm-up and the quote top-up (no order placed), so it reads
   * lower than the events delivered even when each arrives within a fraction of a second.
   */
  deliveriesPerSecToLastArrival: number;
  /** Deliveries the healthy receivers still missed when the drain gave up (0 when all arrived). */
  undelivered: number;
  badSignatures: number;
  /**
   * CPU per event written during the measured window (µs), by process group (the load generator holds the
   * receivers too), and the share of the machine others used meanwhile: where the cost of a delivery goes.
   */
  cpu: { cambioUs: number; postgresUs: number; benchUs: number; othersPct: number } | null;
  /**
   * The healthy receivers' deliveries second by second from the start of the run (warm-up and quote top-up
   * included): by the second their event was written, and by the second they arrived; with the measured
   * window's seconds. A backlog shows as arrivals trailing the writes.
   */
  timeline: { written: number[]; arrived: number[]; windowFromSec: number; windowToSec: number };
}
/** bench/results/webhooks.json: each endpoint count's figures, with p99MsWithoutBadReceivers from the run without them. */
export interface WebhooksRecord {
  store: StoreKind;
  endpoints: number;
  eventsPerSec: number;
  deliveriesPerSec: number;
  p50Ms: number;
  p99Ms: number;
  p99MsWithoutBadReceivers: number;
  undelivered: number;
}

const log = (s: string) => console.log(`· ${s}`);
/** What the endpoints subscribe to: every state an order and a withdrawal go through. */
const TYPES = ['order', 'withdrawal'].flatMap((k) => ['created', 'approved', 'completed', 'failed', 'rejected'].map((s) => `${k}.${s}`));
const WITHDRAWAL_MINOR = '100';
const APPROVE_BODY = JSON.stringify({});

/**
 * The orders and withdrawals workload, each taken through its lifecycle: organizations in turn place an order
 * (accepting a pooled quote) or request a withdrawal (to their destination), alternately; the operator
 * approves each as soon as it was answered (approvals go first), and in sandbox the approval completes it
 * (the simulated venue fills the order, the withdrawal is paid out). So an order writes order.created, then
 * order.approved and order.completed (or failed), and a withdrawal the same three of its own: six events per
 * four requests. The events each answer stands for are counted per organization, with the answer's time.
 */
class Lifecycle {
  /** Created and not yet approved, oldest first. */
  readonly #toApprove: Array<{ kind: 'order' | 'withdrawal'; id: string; org: number }> = [];
  #turn = 0;
  #withdrawalOrg = 0;
  /** Events per organization, from the answers. */
  readonly eventsByOrg: number[];
  /** When each answered event was answered (epoch ms), to count those of the measured window. */
  readonly eventTimes: number[] = [];
  readonly counts = { orders: 0, withdrawals: 0, approvals: 0, refused: 0, lastRefusal: '' };

  constructor(
    private readonly runner: ScenarioRunner,
    private readonly orgs: BenchOrg[],
  ) {
    this.eventsByOrg = orgs.map(() => 0);
  }

  next = (): Shot | null => {
    const due = this.#toApprove.shift();
    if (due)
      return {
        method: 'POST',
        path: `/operator/v1/${due.kind}s/${due.id}/approve`,
        key: '',
        headers: OPERATOR_HEADERS,
        body: APPROVE_BODY,
        kind: 'approve',
        org: due.org,
      };
    if (this.#turn++ % 2 === 0) return this.runner.spread.orderShot();
    const org = this.#withdrawalOrg++ % this.orgs.length;
    const o = this.orgs[org]!;
    return {
      method: 'POST',
      path: '/api/v1/withdrawals',
      key: o.key,
      body: JSON.stringify({ destinationId: o.destinationId, assetSymbol: QUOTE, assetDecimals: 2, amountMinor: WITHDRAWAL_MINOR }),
      kind: 'withdrawal',
      org,
    };
  };

  #events(org: number, n: number): void {
    this.eventsByOrg[org]! += n;
    const now = Date.now();
    for (let i = 0; i < n; i++) this.eventTimes.push(now);
  }

  onBody = (shot: Shot, status: number, body: string): void => {
    if (shot.org === undefined) return;
    const ok = status === 200 || status === 201;
    if (!ok) {
      this.counts.refused++;
      this.counts.lastRefusal = `${shot.method} ${shot.path}: ${status} ${body.slice(0, 200)}`;
      return;
    }
    if (shot.kind === 'order' || shot.kind === 'withdrawal') {
      const id = (JSON.parse(body) as { data: { id: string } }).data.id;
      this.#toApprove.push({ kind: shot.kind, id, org: shot.org });
      if (shot.kind === 'order') this.counts.orders++;
      else this.counts.withdrawals++;
      this.#events(shot.org, 1);
    } else if (shot.kind === 'approve') {
      this.counts.approvals++;
      const state = (JSON.parse(body) as { data: { state: string } }).data.state;
      // approved, and then completed or failed when the approval carried it through
      this.#events(shot.org, state === 'approved' ? 1 : 2);
    }
  };
}
/** How long the healthy receivers may take after the load to receive every delivery. */
const DRAIN_MS = 90_000;

async function call(
  url: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: any; raw: string }> {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const raw = await r.text();
  let data: any = null;
  try {
    data = JSON.parse(raw).data;
  } catch {
    /* raw says why */
  }
  return { status: r.status, data, raw };
}

/**
 * Endpoints spread over the organizations in turn, each subscribed to order.created; with bad receivers,
 * one slow and one failing endpoint more on the first organizations (so they share events with healthy ones).
 */
async function register(
  url: string,
  orgs: BenchOrg[],
  rx: Receivers,
  healthy: number,
  bad: boolean,
): Promise<Array<{ org: BenchOrg; id: string }>> {
  const plan: Array<{ org: BenchOrg; behaviour: Behaviour }> = Array.from({ length: healthy }, (_, i) => ({
    org: orgs[i % orgs.length]!,
    behaviour: 'healthy' as const,
  }));
  if (bad) plan.push({ org: orgs[0]!, behaviour: 'slow' }, { org: orgs[1 % orgs.length]!, behaviour: 'failing' });
  const made: Array<{ org: BenchOrg; id: string }> = [];
  for (const [i, p] of plan.entries()) {
    const at = rx.path(`${i}-${p.behaviour}`, p.behaviour);
    const r = await call(url, p.org.key, 'POST', '/api/v1/webhooks', { url: at.url, types: TYPES });
    if (r.status !== 201) throw new Error(`registering a webhook answered ${r.status}: ${r.raw.slice(0, 300)}`);
    at.secret(r.data.secret);
    made.push({ org: p.org, id: r.data.id });
  }
  return made;
}

/** One store's service under the bench: its seeded organizations, the runner's quote pools, the receivers. */
export interface WebhooksTarget {
  store: StoreKind;
  url: string;
  runner: ScenarioRunner;
  orgs: BenchOrg[];
  rx: Receivers;
}

/** How many of `healthy` endpoints each organization has (register() spreads them over the organizations in turn). */
const healthyPerOrg = (orgs: number, healthy: number): number[] =>
  Array.from({ length: orgs }, (_, i) => Math.floor(healthy / orgs) + (i < healthy % orgs ? 1 : 0));

async function unregister(url: string, endpoints: Array<{ org: BenchOrg; id: string }>): Promise<void> {
  for (const e of endpoints) {
    const r = await call(url, e.org.key, 'DELETE', `/api/v1/webhooks/${e.id}`);
    if (r.status !== 200 && r.status !== 204) throw new Error(`removing a webhook answered ${r.status}: ${r.raw.slice(0, 300)}`);
  }
}

/**
 * The orders and withdrawals workload (Lifecycle) with `healthy` endpoints registered (and, if asked, a
 * receiver answering after 5 s and one answering 500). Events written per second are those the answers of
 * the measured window stand for; deliveries per second count the healthy receivers' first arrivals in the same
 * window (a worker that falls behind delivers fewer in it, and its backlog shows in the latency); the latency
 * runs from an event's createdAt to its first arrival.
 */
export async function webhooksRun(at: WebhooksTarget, healthy: number, bad: boolean): Promise<WebhooksRun> {
  const { store, url, runner, orgs, rx } = at;
  rx.reset();
  const endpoints = await register(url, orgs, rx, healthy, bad);
  const healthyByOrg = healthyPerOrg(orgs.length, healthy);
  const work = new Lifecycle(runner, orgs);
  const start = Date.now();
  // Orders are a quarter of the requests: order, approval, withdrawal, approval.
  const out = await runner.runOrders(work.next, 0.25, work.onBody);
  if (work.counts.refused > 0)
    throw new Error(`the workload was refused ${work.counts.refused} times; the last: ${work.counts.lastRefusal}`);
  // Each event goes to its organization's healthy endpoints.
  const expected = work.eventsByOrg.reduce((sum, n, i) => sum + n * healthyByOrg[i]!, 0);
  const eventsInWindow = work.eventTimes.filter((t) => t >= out.window.start && t <= out.window.end).length;
  const windowMs = Math.max(1, out.window.end - out.window.start);
  // The CPU figures are per request answered in the window; per event they are scaled by requests ÷ events.
  const perEvent = out.result.ok / Math.max(1, eventsInWindow);
  const deadline = Date.now() + DRAIN_MS;
  while (rx.receipts.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  const receipts = rx.receipts;
  const last = receipts.reduce((m, r) => Math.max(m, r.receivedAtMs), start);
  // Arrivals in the measured window, the one events/s is counted in.
  const inWindow = receipts.filter((r) => r.receivedAtMs >= out.window.start && r.receivedAtMs <= out.window.end).length;
  const latencies = receipts.map((r) => r.receivedAtMs - r.createdAtMs).sort((a, b) => a - b);
  const second = (ms: number) => Math.max(0, Math.floor((ms - start) / 1000));
  const timeline = {
    written: [] as number[],
    arrived: [] as number[],
    windowFromSec: second(out.window.start),
    windowToSec: second(out.window.end),
  };
  for (const r of receipts) {
    for (const [series, at] of [
      [timeline.written, r.createdAtMs],
      [timeline.arrived, r.receivedAtMs],
    ] as const) {
      const i = second(at);
      while (series.length <= i) series.push(0);
      series[i]!++;
    }
  }
  await unregister(url, endpoints);
  const run: WebhooksRun = {
    store,
    endpoints: healthy,
    withBadReceivers: bad,
    eventsPerSec: Math.round((eventsInWindow / windowMs) * 1000),
    requestsPerSec: Math.round(out.result.reqPerSec),
    requests: { orders: work.counts.orders, withdrawals: work.counts.withdrawals, approvals: work.counts.approvals },
    deliveriesPerSec: Math.round((inWindow / windowMs) * 1000),
    deliveriesPerSecToLastArrival: Math.round((receipts.length / Math.max(1, last - start)) * 1000),
    p50Ms: Math.round(percentile(latencies, 0.5)),
    p99Ms: Math.round(percentile(latencies, 0.99)),
    maxMs: latencies.at(-1) ?? 0,
    undelivered: Math.max(0, expected - receipts.length),
    badSignatures: rx.badSignatures,
    cpu: out.cpu && {
      cambioUs: Math.round(out.cpu.cambioUs * perEvent),
      postgresUs: Math.round(out.cpu.postgresUs * perEvent),
      benchUs: Math.round(out.cpu.loadGeneratorUs * perEvent),
      othersPct: out.cpu.othersPct,
    },
    timeline,
  };
  log(
    `${store}: ${healthy} endpoints${bad ? ' + slow + failing' : ''}: ${run.requestsPerSec} req/s, ${run.eventsPerSec} events/s, ${run.deliveriesPerSec} deliveries/s, ` +
      `commit → first attempt p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, max ${run.maxMs} ms, ${run.deliveriesPerSecToLastArrival} deliveries/s from the warm-up to the last arrival, ${run.undelivered} undelivered, ${run.badSignatures} bad signatures` +
      (run.cpu
        ? `; CPU per event: cambio ${run.cpu.cambioUs} µs, postgres ${run.cpu.postgresUs} µs, bench ${run.cpu.benchUs} µs (others ${run.cpu.othersPct} % of the machine)`
        : ''),
  );
  return run;
}

/** The published record of one endpoint count: the run with the bad receivers, beside the run without them. */
export function webhooksRecord(withBad: WebhooksRun, without: WebhooksRun): WebhooksRecord {
  return {
    store: withBad.store,
    endpoints: withBad.endpoints,
    eventsPerSec: withBad.eventsPerSec,
    deliveriesPerSec: withBad.deliveriesPerSec,
    p50Ms: withBad.p50Ms,
    p99Ms: withBad.p99Ms,
    p99MsWithoutBadReceivers: without.p99Ms,
    undelivered: withBad.undelivered + without.undelivered,
  };
}

/**
 * The delivery worker's capacity: how fast it delivers a backlog. Orders-spread fills one (order.created
 * for each order, one delivery per healthy endpoint of its organization) while the healthy receivers hang
 * (Receivers.hold: each endpoint's attempts in flight fill its slots, the rest wait in the store); the slow
 * and the failing receiver answer as always. Once the load stops the receivers are released, and
 * deliveries/s is the backlog over the time from the release to its last arrival: the worker alone on the
 * machine, the rate at which it catches up after an outage, where the workload runs above are bounded by the
 * events it writes.
 */
export interface WebhooksDrain {
  store: StoreKind;
  endpoints: number;
  /** Orders placed per second while the receivers were held. */
  ordersPerSec: number;
  /** Deliveries the healthy receivers had not received when they were released. */
  backlog: number;
  deliveriesPerSec: number;
  /** From the release to the backlog's last arrival. */
  drainMs: number;
  undelivered: number;
  badSignatures: number;
  /** The healthy receivers' arrivals second by second from the release. */
  arrivedBySecond: number[];
}

export async function webhooksDrain(
  at: WebhooksTarget,
  healthy: number,
  o: { connections: number; fillSec: number },
): Promise<WebhooksDrain> {
  const { store, url, runner, orgs, rx } = at;
  rx.reset();
  const endpoints = await register(url, orgs, rx, healthy, true);
  const healthyByOrg = healthyPerOrg(orgs.length, healthy);
  // Quotes for the whole fill first (orders-spread's own rate, with room): quoting must not share the drain.
  const want = FILL_ORDERS_PER_SEC * o.fillSec;
  if (runner.spread.size < want) await runner.spread.fill(url, o.connections, want - runner.spread.size);
  rx.hold();
  const ordersByOrg = orgs.map(() => 0);
  let refused = '';
  const fill = await runLoad({
    url,
    connections: o.connections,
    duration: o.fillSec,
    next: () => runner.spread.orderShot(),
    onBody: (shot, status, body) => {
      if (shot.org === undefined) return;
      if (status === 201) ordersByOrg[shot.org]!++;
      else refused = `${status} ${body.slice(0, 200)}`;
    },
  });
  if (refused) throw new Error(`an order was refused while the backlog was filled: ${refused}`);
  const expected = ordersByOrg.reduce((sum, n, i) => sum + n * healthyByOrg[i]!, 0);
  const before = rx.receipts.length;
  const releasedAt = Date.now();
  rx.release();
  const deadline = releasedAt + DRAIN_MS;
  while (rx.receipts.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const after = rx.receipts.slice(before);
  const last = after.reduce((m, r) => Math.max(m, r.receivedAtMs), releasedAt);
  const arrivedBySecond: number[] = [];
  for (const r of after) {
    const i = Math.floor((r.receivedAtMs - releasedAt) / 1000);
    while (arrivedBySecond.length <= i) arrivedBySecond.push(0);
    arrivedBySecond[i]!++;
  }
  await unregister(url, endpoints);
  const drainMs = Math.max(1, last - releasedAt);
  const run: WebhooksDrain = {
    store,
    endpoints: healthy,
    ordersPerSec: Math.round(fill.reqPerSec),
    backlog: expected - before,
    deliveriesPerSec: Math.round((after.length / drainMs) * 1000),
    drainMs,
    undelivered: Math.max(0, expected - rx.receipts.length),
    badSignatures: rx.badSignatures,
    arrivedBySecond,
  };
  log(
    `${store}: backlog of ${run.backlog} deliveries at ${healthy} endpoints + slow + failing (filled at ${run.ordersPerSec} orders/s): ` +
      `drained in ${drainMs} ms, ${run.deliveriesPerSec} deliveries/s, ${run.undelivered} undelivered, ${run.badSignatures} bad signatures; by second ${arrivedBySecond.join(' ')}`,
  );
  return run;
}
/** Quotes made per second of fill: above orders-spread's rate on this machine, so the pool never runs dry. */
const FILL_ORDERS_PER_SEC = 3_500;
