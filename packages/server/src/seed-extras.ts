import type { AppDeps } from './app.ts';
import type { DemoSeed } from './seed.ts';

/**
 * Demo data of the capabilities beyond the foundation (priced pairs, deposit wallets…), run once
 * after the demo organization is seeded. Each capability adds its step here.
 */
export const demoSteps: Array<(deps: AppDeps, demo: DemoSeed) => Promise<void>> = [];

export async function seedExtras(deps: AppDeps, demo: DemoSeed): Promise<void> {
  for (const step of demoSteps) await step(deps, demo);
}
