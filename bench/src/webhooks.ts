import { percentile } from './load.ts';
import type { StoreKind } from './report.ts';
import type { ScenarioRunner } from './scenarios.ts';
import type { BenchOrg } from './seed.ts';
import type { Receivers } from './webhook-receivers.ts';
import { type Behaviour } from './webhook-receivers.ts';

/** One measured run: a number of healthy endpoints, with or without the slow and the failing receiver. */
export interface WebhooksRun {
  store: StoreKind;
  endpoints: number;
  withBadReceivers: boolean;
  eventsPerSec: number;
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
const TYPES = ['order.created'];
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

async function unregister(url: string, endpoints: Array<{ org: BenchOrg; id: string }>): Promise<void> {
  for (const e of endpoints) {
    const r = await call(url, e.org.key, 'DELETE', `/api/v1/webhooks/${e.id}`);
    if (r.status !== 200 && r.status !== 204) throw new Error(`removing a webhook answered ${r.status}: ${r.raw.slice(0, 300)}`);
  }
}

/**
 * The orders-spread load with `healthy` endpoints registered (and, if asked, a receiver answering after
 * 5 s and one answering 500). Events written per second are the orders created per second (one
 * order.created each); deliveries per second count the healthy receivers' first arrivals in the same
 * measured window (a worker that falls behind delivers fewer in it, and its backlog shows in the latency);
 * the latency runs from an event's createdAt to its first arrival.
 */
export async function webhooksRun(
  store: StoreKind,
  url: string,
  runner: ScenarioRunner,
  orgs: BenchOrg[],
  rx: Receivers,
  healthy: number,
  bad: boolean,
): Promise<WebhooksRun> {
  rx.reset();
  const endpoints = await register(url, orgs, rx, healthy, bad);
  const createdBefore = runner.orders.created;
  const start = Date.now();
  const out = await runner.run('orders-spread');
  const created = runner.orders.created - createdBefore;
  // Each order created fans out to its organization's healthy endpoints; the spread rotates evenly, so the
  // expected count is the orders times the endpoints per organization, on average.
  const expected = Math.round((created * healthy) / orgs.length);
  const deadline = Date.now() + DRAIN_MS;
  while (rx.receipts.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  const receipts = rx.receipts;
  const last = receipts.reduce((m, r) => Math.max(m, r.receivedAtMs), start);
  // Arrivals in the measured window, the one events/s is counted in.
  const inWindow = receipts.filter((r) => r.receivedAtMs >= out.window.start && r.receivedAtMs <= out.window.end).length;
  const latencies = receipts.map((r) => r.receivedAtMs - r.createdAtMs).sort((a, b) => a - b);
  await unregister(url, endpoints);
  const run: WebhooksRun = {
    store,
    endpoints: healthy,
    withBadReceivers: bad,
    eventsPerSec: Math.round(out.result.reqPerSec),
    deliveriesPerSec: Math.round((inWindow / Math.max(1, out.window.end - out.window.start)) * 1000),
    deliveriesPerSecToLastArrival: Math.round((receipts.length / Math.max(1, last - start)) * 1000),
    p50Ms: Math.round(percentile(latencies, 0.5)),
    p99Ms: Math.round(percentile(latencies, 0.99)),
    maxMs: latencies.at(-1) ?? 0,
    undelivered: Math.max(0, expected - receipts.length),
    badSignatures: rx.badSignatures,
    cpu: out.cpu && {
      cambioUs: out.cpu.cambioUs,
      postgresUs: out.cpu.postgresUs,
      benchUs: out.cpu.loadGeneratorUs,
      othersPct: out.cpu.othersPct,
    },
  };
  log(
    `${store}: ${healthy} endpoints${bad ? ' + slow + failing' : ''}: ${run.eventsPerSec} events/s, ${run.deliveriesPerSec} deliveries/s, ` +
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
