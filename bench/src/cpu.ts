import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time, from /proc (Linux; elsewhere every figure is null): Cambio's process, the PostgreSQL
 * backends serving its database plus the server's own WAL writer (others' databases on the same
 * server are not ours), this process (the load generator) and the whole machine. Divided by the requests of a
 * window, it says where each request's cost goes, and how much of the machine others used meanwhile.
 */
export interface CpuSnapshot {
  at: number;
  cambio: number;
  loadGenerator: number;
  machineBusy: number;
  machineTotal: number;
  /**
   * Each PostgreSQL process's CPU so far (ms) by pid: a window counts what the processes alive at its end
   * spent in it. A backend that exits during the window (the pool closes an idle connection) takes its
   * ticks with it; summed over all processes, that made the window's PostgreSQL CPU negative.
   */
  postgres: Map<string, number>;
}

const TICK_MS = 10; // USER_HZ is 100 on every Linux build that matters

function procTicks(pid: string): { comm: string; ticks: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const comm = s.slice(s.indexOf('(') + 1, close);
    const f = s.slice(close + 2).split(' ');
    // fields 14 and 15 (utime, stime) are at 11 and 12 after the comm
    return { comm, ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

export function cpuSnapshot(cambioPid: number | undefined, database: string | undefined): CpuSnapshot | null {
  try {
    const stat = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (stat[3] ?? 0) + (stat[4] ?? 0);
    const total = stat.reduce((a, b) => a + b, 0);
    const postgres = new Map<string, number>();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const p = procTicks(pid);
      if (!p || p.comm !== 'postgres' || !database) continue;
      // The process title is "postgres: <user> <database> <client> <state>" for a backend.
      const title = cmdline(pid);
      if (title.includes(` ${database} `) || title.includes('walwriter')) postgres.set(pid, p.ticks * TICK_MS);
    }
    const u = process.cpuUsage();
    return {
      at: Date.now(),
      cambio: cambioPid ? (procTicks(String(cambioPid))?.ticks ?? 0) * TICK_MS : 0,
      postgres,
      loadGenerator: (u.user + u.system) / 1000,
      machineBusy: (total - idle) * TICK_MS,
      machineTotal: total * TICK_MS,
    };
  } catch {
    return null;
  }
}

export interface CpuPerRequest {
  /** CPU microseconds per successful request, by process group. */
  cambioUs: number;
  postgresUs: number;
  loadGeneratorUs: number;
  otherUs: number;
  /** Share of the whole machine (all cores) that was busy during the window, and the share others used. */
  machineBusyPct: number;
  othersPct: number;
}

export function cpuPerRequest(a: CpuSnapshot | null, b: CpuSnapshot | null, requests: number): CpuPerRequest | null {
  if (!a || !b || requests <= 0) return null;
  const cambio = b.cambio - a.cambio;
  let postgres = 0;
  for (const [pid, ms] of b.postgres) postgres += ms - (a.postgres.get(pid) ?? 0);
  const gen = b.loadGenerator - a.loadGenerator;
  const busy = b.machineBusy - a.machineBusy;
  const total = Math.max(1, b.machineTotal - a.machineTotal);
  const other = Math.max(0, busy - cambio - postgres - gen);
  const us = (ms: number) => Math.round((ms * 1000) / requests);
  return {
    cambioUs: us(cambio),
    postgresUs: us(postgres),
    loadGeneratorUs: us(gen),
    otherUs: us(other),
    machineBusyPct: Math.round((100 * busy) / total),
    othersPct: Math.round((100 * other) / total),
  };
}
