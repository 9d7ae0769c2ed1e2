import type { BackgroundTask } from './background-task.ts';
import type { AppDeps } from './deps.ts';
import { sweepMagic } from './usecases/sandbox/decide-magic.ts';

/** How often the sandbox sweeps with no commit to wake it: what bounds a decision after a restart or a lost nudge. */
export const SANDBOX_POLL_MS = 1_000;
/** The shortest time between two sweeps: under a stream of writes, a few sweeps a second, not one per commit. */
const SWEEP_GAP_MS = 200;

/**
 * The sandbox decides magic amounts by itself (docs/sandbox.md), never inside the request that created
 * them: this loop sweeps the pending ones after every commit answered by the API (the webhook worker's
 * nudge, which another instance relays on PostgreSQL), and every second whatever happens, so a request
 * created just before a crash is decided once the service is back. Nothing in production.
 */
export async function runSandboxDecider(deps: AppDeps, signal?: AbortSignal): Promise<void> {
  if (deps.config.mode !== 'sandbox') return;
  const wakes = deps.store.webhooks.wakes;
  const skip = new Map<string, number>();
  const onError = (id: string, err: unknown) => deps.logger?.error({ err, id }, 'the sandbox could not decide a magic amount; will retry');
  while (!signal?.aborted) {
    const seen = wakes.count;
    const started = Date.now();
    await sweepMagic(deps, { skip, onError });
    if (skip.size > 1000) skip.clear();
    if (wakes.count === seen) await woken(wakes, SANDBOX_POLL_MS, signal);
    const gap = SWEEP_GAP_MS - (Date.now() - started);
    if (gap > 0 && !signal?.aborted) await new Promise((r) => setTimeout(r, gap));
  }
}

/** Resolves at the next nudge, after `ms`, or at the abort, whichever comes first. */
function woken(wakes: { subscribe(l: () => void): () => void }, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = wakes.subscribe(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The loop above as a background task: started again at the next tick when a run ended (the store did not answer). */
export const sandboxDecisionsTask: BackgroundTask = {
  name: 'sandbox-decisions',
  everyMs: SANDBOX_POLL_MS,
  run: (deps, signal) => runSandboxDecider(deps, signal),
};
