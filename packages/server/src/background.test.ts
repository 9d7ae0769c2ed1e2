import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AppDeps } from './deps.ts';
import { startBackground, type BackgroundTask } from './background.ts';

test('stopping waits for a run in flight, and no run starts after it', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let started = 0;
  let finished = 0;
  const task: BackgroundTask = {
    name: 'slow',
    everyMs: 5,
    run: async () => {
      started++;
      await gate;
      finished++;
    },
  };
  const stop = startBackground({} as AppDeps, [task]);
  while (started === 0) await new Promise((r) => setTimeout(r, 5));

  let stoppedAt = -1;
  const stopping = stop().then(() => {
    stoppedAt = finished;
  });
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(stoppedAt, -1, 'stop has not resolved while the task runs');
  release();
  await stopping;
  assert.equal(stoppedAt, 1, 'stop resolved after the run finished');
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(started, 1, 'no run started after stop');
});

test('a failing run is logged and does not stop the next ones; stop resolves', async () => {
  const errors: string[] = [];
  let runs = 0;
  const task: BackgroundTask = {
    name: 'flaky',
    everyMs: 5,
    run: async () => {
      runs++;
      throw new Error('boom');
    },
  };
  const stop = startBackground({ logger: { error: (_o: unknown, msg: string) => errors.push(msg) } } as unknown as AppDeps, [task]);
  while (runs < 3) await new Promise((r) => setTimeout(r, 5));
  await stop();
  assert.ok(errors.length >= 2);
  assert.match(errors[0]!, /background task flaky failed/);
});

test('while the store does not answer, a task pauses (said once, no error logged) and resumes when it answers', async () => {
  const said: string[] = [];
  let runs = 0;
  let down = true;
  const task: BackgroundTask = {
    name: 'expire',
    everyMs: 5,
    run: async () => {
      runs++;
      if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    },
  };
  const log = (level: string) => (o: unknown, msg?: string) => said.push(`${level} ${typeof o === 'string' ? o : msg}`);
  const stop = startBackground({ logger: { error: log('error'), warn: log('warn'), info: log('info') } } as unknown as AppDeps, [task]);
  while (runs < 4) await new Promise((r) => setTimeout(r, 5));
  down = false;
  const at = runs;
  while (runs < at + 3) await new Promise((r) => setTimeout(r, 5));
  await stop();
  assert.deepEqual(said, [
    'warn background task expire paused: the store does not answer',
    'info background task expire resumed: the store answers again',
  ]);
});
