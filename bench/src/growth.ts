import type { StoreCounts } from './bulk-seed.ts';
import type { ScenarioRecord, StoreKind } from './report.ts';
import type { ScenarioName } from './scenarios.ts';

/** One step of a growth run on one store: what the store held, and each scenario measured there. */
export interface GrowthStep {
  store: StoreKind;
  size: number;
  counts: StoreCounts;
  seedSec: number;
  scenarios: ScenarioRecord[];
}

/** At every size within 20 % of the smallest size's figure; PGlite at ≥ 0.4× PostgreSQL's figure of the same size. */
export const FLAT_WITHIN = 0.2;
export const PGLITE_SHARE = 0.4;

export interface GrowthVerdict {
  name: ScenarioName;
  store: StoreKind;
  size: number;
  reqPerSec: number;
  p99Ms: number;
  /** Cambio + PostgreSQL CPU µs per request (Cambio alone on PGlite), when /proc gives it. */
  cpuUs: number | null;
  /** req/s ÷ the smallest size's req/s; CPU per request ÷ the smallest size's. */
  rate: number;
  cpu: number | null;
  flat: boolean;
  /** PGlite only: req/s ÷ PostgreSQL's at the same size. */
  ofPostgres: number | null;
  shareMet: boolean | null;
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
// A PostgreSQL backend that exits inside a window (the pool closes idle connections) takes its CPU time with it: no figure then.
export const cpuOf = (r: ScenarioRecord): number | null =>
  r.cpu && r.cpu.cambioUs >= 0 && r.cpu.postgresUs >= 0 ? r.cpu.cambioUs + r.cpu.postgresUs : null;

export function judge(steps: GrowthStep[]): GrowthVerdict[] {
  const out: GrowthVerdict[] = [];
  const first = new Map<string, ScenarioRecord>();
  for (const s of steps) {
    for (const r of s.scenarios) {
      const k = `${s.store}/${r.name}`;
      if (!first.has(k)) first.set(k, r);
      const f = first.get(k)!;
      const rate = f.reqPerSec > 0 ? round(r.reqPerSec / f.reqPerSec) : 0;
      const c = cpuOf(r);
      const fc = cpuOf(f);
      const cpu = c !== null && fc ? round(c / fc) : null;
      const pg =
        s.store === 'pglite'
          ? steps.find((x) => x.store === 'postgres' && x.size === s.size)?.scenarios.find((x) => x.name === r.name)
          : undefined;
      const ofPostgres = pg && pg.reqPerSec > 0 ? round(r.reqPerSec / pg.reqPerSec) : null;
      out.push({
        name: r.name,
        store: s.store,
        size: s.size,
        reqPerSec: r.reqPerSec,
        p99Ms: r.p99Ms,
        cpuUs: c,
        rate,
        cpu,
        flat: rate >= 1 - FLAT_WITHIN && (cpu === null || cpu <= 1 + FLAT_WITHIN) && r.errors === 0 && r.invariants.ok,
        ofPostgres,
        shareMet: s.store === 'pglite' ? ofPostgres !== null && ofPostgres >= PGLITE_SHARE : null,
      });
    }
  }
  return out;
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

export function printGrowth(steps: GrowthStep[], verdicts: GrowthVerdict[]): void {
  const lines = [
    '',
    `growth: each size against the smallest (flat: req/s ≥ ${1 - FLAT_WITHIN}× and CPU/request ≤ ${1 + FLAT_WITHIN}×); PGlite ≥ ${PGLITE_SHARE}× PostgreSQL at the same size`,
  ];
  for (const s of steps) {
    const c = s.counts;
    lines.push(
      `  ${s.store} @ ${s.size}: quotes ${c.quotes}, orders ${c.orders}, postings ${c.postings}, events ${c.events} (bulk seeding ${s.seedSec} s)`,
    );
  }
  lines.push(
    [
      pad('scenario', 14),
      pad('store', 9),
      lpad('size', 9),
      lpad('req/s', 8),
      lpad('p99 ms', 8),
      lpad('cpu µs', 7),
      lpad('×req/s', 7),
      lpad('×cpu', 6),
      '  flat',
      lpad('÷pg', 6),
      '  ≥0.4',
    ].join(' '),
  );
  for (const v of verdicts) {
    lines.push(
      [
        pad(v.name, 14),
        pad(v.store, 9),
        lpad(String(v.size), 9),
        lpad(v.reqPerSec.toFixed(0), 8),
        lpad(v.p99Ms.toFixed(1), 8),
        lpad(v.cpuUs === null ? '-' : String(v.cpuUs), 7),
        lpad(v.rate.toFixed(2), 7),
        lpad(v.cpu === null ? '-' : v.cpu.toFixed(2), 6),
        `  ${v.flat ? 'yes' : 'NO '}`,
        lpad(v.ofPostgres === null ? '-' : v.ofPostgres.toFixed(2), 6),
        `  ${v.shareMet === null ? ' - ' : v.shareMet ? 'yes' : 'NO '}`,
      ].join(' '),
    );
  }
  console.log(lines.join('\n'));
}
