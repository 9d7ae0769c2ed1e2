import { readFileSync, writeFileSync } from 'node:fs';
import type { GrowthVerdict } from './growth.ts';

/**
 * The growth run as a self-contained SVG (no script, no external font or stylesheet): one panel per
 * scenario and measure (req/s, p99 ms), the store size on a log axis, one line per store.
 * `node --import tsx bench/src/svg-plot.ts bench/results/growth.json bench/results/growth.svg` redraws it.
 */
const W = 260;
const H = 190;
const M = { l: 52, r: 12, t: 26, b: 34 };
const COLORS: Record<string, string> = { postgres: '#1f6fb2', pglite: '#d9730d' };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(Math.round(n * 10) / 10));

function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function panel(
  x0: number,
  y0: number,
  title: string,
  series: Array<{ store: string; points: Array<[number, number]> }>,
  sizes: number[],
): string {
  const out: string[] = [];
  const pw = W - M.l - M.r;
  const ph = H - M.t - M.b;
  const lo = Math.log10(Math.min(...sizes));
  const hi = Math.log10(Math.max(...sizes));
  const xs = (s: number) => x0 + M.l + (hi === lo ? pw / 2 : ((Math.log10(s) - lo) / (hi - lo)) * pw);
  const ymax = niceMax(Math.max(1, ...series.flatMap((s) => s.points.map((p) => p[1]))) * 1.1);
  const ys = (v: number) => y0 + M.t + ph - (v / ymax) * ph;
  out.push(`<text x="${x0 + W / 2}" y="${y0 + 16}" text-anchor="middle" font-weight="bold">${esc(title)}</text>`);
  out.push(`<rect x="${x0 + M.l}" y="${y0 + M.t}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
  for (let i = 0; i <= 4; i++) {
    const v = (ymax * i) / 4;
    out.push(`<line x1="${x0 + M.l}" x2="${x0 + M.l + pw}" y1="${ys(v)}" y2="${ys(v)}" stroke="#eee"/>`);
    out.push(`<text x="${x0 + M.l - 4}" y="${ys(v) + 4}" text-anchor="end">${fmt(v)}</text>`);
  }
  for (const s of sizes) out.push(`<text x="${xs(s)}" y="${y0 + M.t + ph + 14}" text-anchor="middle">${fmt(s)}</text>`);
  out.push(`<text x="${x0 + M.l + pw / 2}" y="${y0 + H - 4}" text-anchor="middle" fill="#555">earlier quotes in the store</text>`);
  for (const s of series) {
    if (!s.points.length) continue;
    const c = COLORS[s.store] ?? '#333';
    out.push(
      `<polyline fill="none" stroke="${c}" stroke-width="2" points="${s.points.map(([x, y]) => `${xs(x).toFixed(1)},${ys(y).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const [x, y] of s.points) out.push(`<circle cx="${xs(x).toFixed(1)}" cy="${ys(y).toFixed(1)}" r="3" fill="${c}"/>`);
  }
  return out.join('\n');
}

export function growthSvg(verdicts: GrowthVerdict[], caption: string): string {
  const names = [...new Set(verdicts.map((v) => v.name))];
  const stores = [...new Set(verdicts.map((v) => v.store))];
  const sizes = [...new Set(verdicts.map((v) => v.size))].sort((a, b) => a - b);
  const measures: Array<[string, (v: GrowthVerdict) => number]> = [
    ['req/s', (v) => v.reqPerSec],
    ['p99 ms', (v) => v.p99Ms],
  ];
  const width = W * names.length;
  const height = H * measures.length + 40;
  const parts: string[] = [];
  measures.forEach(([label, f], row) => {
    names.forEach((n, col) => {
      const series = stores.map((store) => ({
        store,
        points: verdicts.filter((v) => v.name === n && v.store === store).map((v): [number, number] => [v.size, f(v)]),
      }));
      parts.push(panel(col * W, row * H, `${n}: ${label}`, series, sizes));
    });
  });
  const legend = stores
    .map(
      (s, i) =>
        `<rect x="${10 + i * 110}" y="${height - 26}" width="14" height="4" fill="${COLORS[s] ?? '#333'}"/><text x="${28 + i * 110}" y="${height - 21}">${esc(s === 'postgres' ? 'PostgreSQL' : s === 'pglite' ? 'PGlite' : s)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="#fff"/>
${parts.join('\n')}
${legend}
<text x="${10 + stores.length * 110}" y="${height - 21}" fill="#555">${esc(caption)}</text>
</svg>
`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, '/'))) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: node --import tsx bench/src/svg-plot.ts <growth.json> <out.svg>');
    process.exit(2);
  }
  const r = JSON.parse(readFileSync(input, 'utf8')) as { growth: { verdicts: GrowthVerdict[] }; label?: string | null };
  writeFileSync(output, growthSvg(r.growth.verdicts, r.label ?? ''));
}
