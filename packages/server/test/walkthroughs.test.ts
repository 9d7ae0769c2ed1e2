import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

/**
 * The README's tour and the guides' walkthroughs run as written, one command after the other, against
 * the service as `npm start` starts it (in memory): every figure they print that is not elided with
 * `…` must be in the answer of the command it follows. Only the exported secrets are the start's own.
 */

const root = new URL('../../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The ```sh blocks of a document between a heading and the next heading of the same level. */
export function shellBlocks(doc: string, heading: string): string[] {
  const start = doc.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `the document has the heading ${heading}`);
  const level = /^#+/.exec(heading)![0];
  const rest = doc.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n${level} `));
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

export interface Step {
  command: string;
  /** `"key":value` pairs the document shows after the command, without those it elides. */
  expected: string[];
}

/** Splits a block into commands (a command spans lines while a quote is open or a line ends in `\`). */
export function stepsOf(block: string): Step[] {
  const steps: Step[] = [];
  let pending = '';
  for (const line of block.split('\n')) {
    if (pending === '') {
      if (line.trim() === '') continue;
      if (line.trimStart().startsWith('#')) {
        // After `ID=$(curl … | jq -r .data.id)` the document shows the answer the shell kept, not output.
        const last = steps.at(-1);
        if (last && !/^\w+=\$\(/.test(last.command)) last.expected.push(...pairsIn(line));
        continue;
      }
    }
    pending += (pending ? '\n' : '') + line;
    if (!isOpen(pending)) {
      steps.push({ command: pending, expected: [] });
      pending = '';
    }
  }
  assert.equal(pending, '', 'every command of the block ends');
  return steps;
}

function isOpen(text: string): boolean {
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') i++;
    else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      // a comment to the end of the line
      const nl = text.indexOf('\n', i);
      if (nl < 0) return false;
      i = nl;
    }
  }
  return quote !== null || /\\$/.test(text);
}

/**
 * The random tail of the guide's deposit (`5006291`, reference `S6DY-H4H5`) differs on every run, and
 * so do the totals that include it: those figures are the document's example, not a promise.
 */
const RANDOM = /6291|S6DY-H4H5/;

function pairsIn(comment: string): string[] {
  return [...comment.matchAll(/"\w+":(?:"(?:[^"\\]|\\.)*"|-?\d+|true|false|null)/g)]
    .map((m) => m[0])
    .filter((p) => !p.includes('…') && !RANDOM.test(p));
}

interface Started {
  url: string;
  key: string;
  op: string;
  stop(): Promise<void>;
}

async function startService(env: Record<string, string>): Promise<Started> {
  const p: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', DATA_DIR: 'memory://', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const on = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    };
    p.stdout!.on('data', on);
    p.stderr!.on('data', on);
    p.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening:\n${out}`)));
  });
  const key = /demo API key \(shown once\): (\S+)/.exec(out)?.[1];
  const op = /operator token \(shown once\): (\S+)/.exec(out)?.[1];
  assert.ok(key && op, `the start prints the demo key and the operator token:\n${out}`);
  return {
    url,
    key,
    op,
    stop: async () => {
      p.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs the steps in one shell, in order; answers each step's output. */
async function run(steps: Step[], env: Record<string, string>, cwd: string, prelude = ''): Promise<string[]> {
  const script = prelude + steps.map((s, i) => `echo "@@step ${i}@@"\n${s.command}\necho`).join('\n');
  const file = join(cwd, 'walkthrough.sh');
  writeFileSync(file, script);
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn('bash', [file], { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, ...env } });
    let text = '';
    p.stdout.on('data', (d: Buffer) => (text += d.toString()));
    p.stderr.on('data', (d: Buffer) => (text += d.toString()));
    p.once('error', reject);
    p.once('exit', () => resolve(text));
  });
  const parts = out.split(/@@step (\d+)@@\n/);
  const outputs: string[] = steps.map(() => '');
  for (let i = 1; i < parts.length; i += 2) outputs[Number(parts[i])] = parts[i + 1] ?? '';
  return outputs;
}

function checkSteps(steps: Step[], outputs: string[]) {
  let checked = 0;
  steps.forEach((s, i) => {
    for (const pair of s.expected) {
      assert.ok(outputs[i]!.includes(pair), `after\n${s.command}\nthe document shows ${pair}; the answer was\n${outputs[i]}`);
      checked++;
    }
  });
  return checked;
}

/** The `export` lines name placeholders (`cmb_live_…`); the shell gets the start's own values instead. */
function withoutExports(steps: Step[]): Step[] {
  const exports = steps.filter((s) => s.command.startsWith('export '));
  assert.ok(exports.length > 0, 'the walkthrough tells the reader what to export');
  return steps.filter((s) => !s.command.startsWith('export '));
}

const onPath = (tool: string) => (process.env.PATH ?? '').split(':').some((d) => d !== '' && existsSync(join(d, tool)));
const hasTools = onPath('curl') && onPath('jq');

describe(
  'the walkthroughs of the README and the guides, run as written',
  { concurrency: true, skip: !hasTools && 'curl and jq are needed' },
  () => {
    const dirs: string[] = [];
    after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
    const workDir = () => {
      const d = mkdtempSync(join(tmpdir(), 'cambio-walkthrough-'));
      dirs.push(d);
      return d;
    };

    test("the README's tour after `npm start`", async () => {
      const steps = withoutExports(shellBlocks(read('README.md'), '## A short tour with curl').flatMap(stepsOf));
      const s = await startService({});
      try {
        const outputs = await run(steps, { API: s.url, KEY: s.key, OP: s.op }, workDir());
        const checked = checkSteps(steps, outputs);
        assert.ok(checked >= 25, `the tour shows its figures (${checked} checked)`);
      } finally {
        await s.stop();
      }
    });

    test("the API guide's walkthrough, then the operator guide's reconciliation, on one service started as the guide says", async () => {
      const guide = shellBlocks(read('docs/api-guide.md'), '## A walkthrough with curl');
      const start = guide.shift()!;
      assert.match(start, /^DATA_DIR=memory:\/\/ CAMBIO_QUOTE_TTL_MS=120000 npm start\n$/, 'the first block starts the service');
      const steps = withoutExports(guide.flatMap(stepsOf));
      const reconciliation = shellBlocks(read('docs/operator-guide.md'), '## Reconciliation').flatMap(stepsOf);
      const all = [...steps, ...reconciliation];
      // The guide waits out the sandbox's one-minute destination cooldown with `sleep 60`. Here the
      // cooldown is 15 s and the guide's `sleep` waits at most 16 s: the same order of events as the
      // reader's (refused while cooling down, usable after the wait), three quarters of a minute sooner.
      const s = await startService({ CAMBIO_QUOTE_TTL_MS: '120000', CAMBIO_DESTINATION_COOLDOWN_MS: '15000' });
      try {
        const sleep = 'sleep() { if [ "$1" -gt 16 ]; then command sleep 16; else command sleep "$1"; fi; }\n';
        const outputs = await run(all, { API: s.url, KEY: s.key, OP: s.op }, workDir(), sleep);
        const checked = checkSteps(all, outputs);
        assert.ok(checked >= 150, `the walkthrough shows its figures (${checked} checked)`);
      } finally {
        await s.stop();
      }
    });
  },
);
