import type { AppDeps } from './deps.ts';

/** Periodic work that must happen whether or not anything reads (e.g. closing expired declarations). A run that loops watches `signal`: aborted at shutdown. */
export interface BackgroundTask { name: string; everyMs: number; run(deps: AppDeps, signal?: AbortSignal): Promise<void> }
