import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** What the figures were measured on: absolute numbers only compare on the same machine. */
export function machineFacts(): Record<string, unknown> {
  const cpus = os.cpus();
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    /* not a git checkout */
  }
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((l) => Math.round(l * 100) / 100),
    startedAt: new Date().toISOString(),
    commit,
  };
}
