import type { AppDeps } from './deps.ts';

/** Periodic work that must happen whether or not anything reads (e.g. closing expired declarations). A run that loops watches `signal`: aborted at shutdown. */
export interface BackgroundTask {
  name: string;
  /** The interval; a function when the configuration sets it. */
  everyMs: number | ((deps: AppDeps) => number);
  run(deps: AppDeps, signal?: AbortSignal): Promise<void>;
}
