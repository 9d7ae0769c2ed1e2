import type { AppDeps } from './deps.ts';
import { walletAddressFor } from './domain/deposits/wallet.ts';
import { seedDemoPairs } from './venues/demo-pairs.ts';
import type { DemoSeed } from './demo-seed.ts';

/**
 * Demo data beyond the organization itself (priced pairs, deposit wallets…), run once
 * after the demo organization is seeded. Each capability adds its step here.
 */
export const demoSteps: Array<(deps: AppDeps, demo: DemoSeed) => Promise<void>> = [
  // Sandbox deposit wallets of the demo assets (USD 2 decimals, BTC 8); the addresses are marked not real.
  async ({ store, config }) => {
    await store.wallets.put('system:seed', { assetSymbol: 'USD', network: 'wire', address: walletAddressFor(config.mode, 'usd-acct-0001-demo') });
    await store.wallets.put('system:seed', { assetSymbol: 'BTC', network: 'bitcoin', address: walletAddressFor(config.mode, 'btc-bc1q-demo-0001') });
  },
  // BTC/USD priced at the simulated market, so the demo key can quote, order and be approved.
  async ({ store }) => { await seedDemoPairs(store.marketPairs); },
];

export async function runDemoSteps(deps: AppDeps, demo: DemoSeed): Promise<void> {
  for (const step of demoSteps) await step(deps, demo);
}
