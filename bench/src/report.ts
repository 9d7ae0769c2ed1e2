import type { CpuPerRequest } from './cpu.ts';
import type { InvariantReport } from './invariants.ts';
import type { LoadResult } from './load.ts';
import type { PgbenchFigures } from './references.ts';
import type { ScenarioName } from './scenarios.ts';

export type StoreKind = 'postgres' | 'pglite';

export interface References {
  helloWorld: number | null;
  pgbench: PgbenchFigures | null;
}

/** The targets (PostgreSQL, 64 connections): a ratio to a reference measured in the same run, and a p99. */
export const TARGETS: Record<
  ScenarioName,
  { reference: 'selectOnly' | 'tpcb' | 'sameRow' | 'helloWorld'; ratio: number | null; p99Ms: number | null }
> = {
  balances: { reference: 'selectOnly', ratio: 0.6, p99Ms: 20 },
  quotes: { reference: 'tpcb', ratio: 1.0, p99Ms: 25 },
  'orders-spread': { reference: 'tpcb', ratio: 0.6, p99Ms: 50 },
  'orders-hot': { reference: 'sameRow', ratio: 0.6, p99Ms: 100 },
  mix: { reference: 'helloWorld', ratio: null, p99Ms: null },
  lists: { reference: 'helloWorld', ratio: null, p99Ms: null },
};

const REFERENCE_NAMES = {
  selectOnly: 'pgbench select-only (-S) TPS',
  tpcb: 'pgbench TPC-B TPS',
  sameRow: 'pgbench same-row update TPS',
  helloWorld: 'Fastify hello-world req/s',
} as const;

export interface ScenarioRecord {
  name: ScenarioName;
  store: StoreKind;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  reference: { name: string; value: number } | null;
  ratio: number | null;
  target: number | null;
  p99TargetMs: number | null;
  /** ratio ≥ target, p99 ≤ its target, no errors and every invariant held; null where there is no target. */
  met: boolean | null;
  helloWorldRatio: number | null;
  durationSec: number;
  statusCodes: Record<string, number>;
  /** CPU µs per successful request by process group, and how busy the machine was (Linux only). */
  cpu: CpuPerRequest | null;
  invariants: InvariantReport;
  notes: string[];
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

function referenceValue(refs: References, key: (typeof TARGETS)[ScenarioName]['reference']): number | null {
  if (key === 'helloWorld') return refs.helloWorld;
  return refs.pgbench ? refs.pgbench[key] : null;
}

export function recordOf(
  name: ScenarioName,
  store: StoreKind,
  r: LoadResult,
  cpu: CpuPerRequest | null,
  refs: References,
  invariants: InvariantReport,
  notes: string[],
  postgresFigure: number | null,
): ScenarioRecord {
  const t = TARGETS[name];
  // The embedded store is reported beside PostgreSQL's figure for the same scenario, with no target.
  const reference =
    store === 'postgres'
      ? referenceValue(refs, t.reference) !== null
        ? { name: REFERENCE_NAMES[t.reference], value: round(referenceValue(refs, t.reference)!) }
        : null
      : postgresFigure !== null
        ? { name: 'cambio on postgres, same scenario', value: round(postgresFigure) }
        : null;
  const ratio = reference && reference.value > 0 ? round(r.reqPerSec / reference.value, 3) : null;
  const target = store === 'postgres' ? t.ratio : null;
  const p99TargetMs = store === 'postgres' ? t.p99Ms : null;
  const met =
    target === null || ratio === null
      ? null
      : ratio >= target && (p99TargetMs === null || r.p99Ms <= p99TargetMs) && r.errors === 0 && invariants.ok;
  return {
    name,
    store,
    reqPerSec: round(r.reqPerSec, 1),
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    errors: r.errors,
    reference,
    ratio,
    target,
    p99TargetMs,
    met,
    helloWorldRatio: refs.helloWorld ? round(r.reqPerSec / refs.helloWorld, 3) : null,
    durationSec: round(r.durationSec),
    statusCodes: r.statusCodes,
    cpu,
    invariants,
    notes,
  };
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

export function printTable(records: ScenarioRecord[], refs: References): void {
  const lines: string[] = [];
  lines.push('references (same run):');
  lines.push(`  Fastify hello-world           ${refs.helloWorld === null ? 'skipped' : `${refs.helloWorld.toFixed(0)} req/s`}`);
  if (refs.pgbench) {
    const p = refs.pgbench;
    lines.push(`  pgbench TPC-B                 ${p.tpcb.toFixed(0)} TPS   (${p.clients} clients, ${p.threads} threads, scale ${p.scale})`);
    lines.push(`  pgbench select-only (-S)      ${p.selectOnly.toFixed(0)} TPS`);
    lines.push(`  pgbench same-row update       ${p.sameRow.toFixed(0)} TPS`);
  } else {
    lines.push('  pgbench                       skipped (not installed, or --no-pgbench)');
  }
  lines.push('');
  const head = [
    pad('scenario', 14),
    pad('store', 9),
    lpad('req/s', 9),
    lpad('p50 ms', 8),
    lpad('p99 ms', 8),
    lpad('errors', 7),
    '  ',
    pad('reference', 33),
    lpad('ref', 9),
    lpad('ratio', 7),
    lpad('target', 14),
    '  met',
    '  ledger',
  ];
  lines.push(head.join(' '));
  for (const r of records) {
    const target = r.target === null ? '-' : `≥${r.target}${r.p99TargetMs !== null ? `, ≤${r.p99TargetMs}ms` : ''}`;
    lines.push(
      [
        pad(r.name, 14),
        pad(r.store, 9),
        lpad(r.reqPerSec.toFixed(0), 9),
        lpad(r.p50Ms.toFixed(1), 8),
        lpad(r.p99Ms.toFixed(1), 8),
        lpad(String(r.errors), 7),
        '  ',
        pad(r.reference?.name ?? '-', 33),
        lpad(r.reference ? r.reference.value.toFixed(0) : '-', 9),
        lpad(r.ratio === null ? '-' : r.ratio.toFixed(2), 7),
        lpad(target, 14),
        `  ${r.met === null ? ' - ' : r.met ? 'yes' : 'NO '}`,
        `  ${r.invariants.ok ? 'ok' : 'BROKEN'}`,
      ].join(' '),
    );
  }
  if (records.some((r) => r.cpu)) {
    lines.push(
      '',
      'CPU per successful request (µs) in the measured window; machine = all cores busy, others = CPU not ours (a disturbed run):',
    );
    lines.push(
      [
        pad('scenario', 14),
        pad('store', 9),
        lpad('cambio', 8),
        lpad('postgres', 9),
        lpad('loadgen', 8),
        lpad('others', 8),
        lpad('machine', 8),
        lpad('others', 7),
      ].join(' '),
    );
    for (const r of records) {
      if (!r.cpu) continue;
      const c = r.cpu;
      lines.push(
        [
          pad(r.name, 14),
          pad(r.store, 9),
          lpad(String(c.cambioUs), 8),
          lpad(String(c.postgresUs), 9),
          lpad(String(c.loadGeneratorUs), 8),
          lpad(String(c.otherUs), 8),
          lpad(`${c.machineBusyPct}%`, 8),
          lpad(`${c.othersPct}%`, 7),
        ].join(' '),
      );
    }
  }
  console.log(lines.join('\n'));
  for (const r of records) {
    for (const n of r.notes) console.log(`  ${r.store}/${r.name}: ${n}`);
    for (const c of r.invariants.checks) if (!c.ok) console.log(`  ${r.store}/${r.name}: INVARIANT BROKEN: ${c.name}: ${c.detail ?? ''}`);
  }
}
