import type { AppDeps } from './deps.ts';

/** Periodic work that must happen whether or not anything reads (e.g. closing expired declarations). */
export interface BackgroundTask { name: string; everyMs: number; run(deps: AppDeps): Promise<void> }
