import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The parts of a V8 .cpuprofile (written by `node --cpu-prof`) that a self-time summary needs. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** Where a frame's code lives: an npm package, a node: built-in, Cambio's own source, or V8 itself. */
export function areaOf(url: string, fn: string): string {
  if (SPECIAL.has(fn)) return fn;
  if (!url) return '(native/V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const pk = url.indexOf('/packages/');
  if (pk >= 0)
    return `cambio ${url
      .slice(pk + '/packages/'.length)
      .split('/')
      .slice(0, 3)
      .join('/')}`;
  return 'other';
}

const shortUrl = (url: string) => {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const pk = url.indexOf('/packages/');
  if (pk >= 0) return url.slice(pk + 1);
  return url.replace(/^file:\/\//, '');
};

/**
 * Self time per function and per area, busy time only (idle excluded), as a text table. `window`
 * (milliseconds from the start of the profile) keeps only the samples of the measured windows, so
 * start-up (module loading, compiling schemas) and seeding do not dilute the picture.
 */
export function summarize(file: string, top = 25, window?: { fromMs: number; toMs: number }): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  let t = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (window && (t < window.fromMs * 1000 || t > window.toMs * 1000)) continue;
    selfUs.set(p.samples[i]!, (selfUs.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0));
  }

  const fns = new Map<string, { us: number; area: string }>();
  const areas = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n) continue;
    total += us;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    // A native frame (a syscall, a hash) is charged to the JavaScript that called it, so `writev` says whose.
    const caller = !url && !SPECIAL.has(functionName) ? byId.get(parent.get(id) ?? -1)?.callFrame : undefined;
    const area = caller?.url ? `${areaOf(caller.url, caller.functionName)} (native)` : areaOf(url, functionName);
    const where = url
      ? `${shortUrl(url)}:${lineNumber + 1}`
      : caller?.url
        ? `(native, called by ${caller.functionName || '(anonymous)'} ${shortUrl(caller.url)}:${caller.lineNumber + 1})`
        : '';
    const key = `${functionName || '(anonymous)'}  ${where}`.trim();
    const f = fns.get(key) ?? { us: 0, area };
    f.us += us;
    fns.set(key, f);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us: number) => `${((100 * us) / Math.max(1, busy)).toFixed(1).padStart(5)}%`;
  const lines = [
    `profile ${file}${window ? ` (samples from ${(window.fromMs / 1000).toFixed(1)} s to ${(window.toMs / 1000).toFixed(1)} s after start only)` : ''}`,
    `sampled ${(total / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (percentages of busy time)`,
    '',
    'self time by area:',
    ...[...areas.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([a, us]) => `  ${pct(us)}  ${a}`),
    '',
    'top functions by self time:',
    ...[...fns.entries()]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([k, f]) => `  ${pct(f.us)}  ${k}`),
  ];
  return lines.join('\n');
}

// `node --import tsx bench/src/cpuprofile-summary.ts <file.cpuprofile> [top] [fromSeconds toSeconds]`
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node --import tsx bench/src/cpuprofile-summary.ts <file.cpuprofile> [top] [fromSeconds toSeconds]');
    process.exit(2);
  }
  const [from, to] = [process.argv[4], process.argv[5]];
  console.log(
    summarize(file, Number(process.argv[3] ?? 25), from && to ? { fromMs: Number(from) * 1000, toMs: Number(to) * 1000 } : undefined),
  );
}
