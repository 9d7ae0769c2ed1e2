import type { AppDeps } from './deps.ts';
import { walletAddressFor } from './domain/deposits/wallet.ts';
import { putWallet } from './usecases/wallets/put-wallet.ts';
import { seedDemoPairs } from './venues/demo-pairs.ts';
import type { DemoSeed } from './demo-seed.ts';

/**
 * Demo data beyond the organization itself (priced pairs, deposit wallets…), run once
 * after the demo organization is seeded. Each capability adds its step here.
 */
export const demoSteps: Array<(deps: AppDeps, demo: DemoSeed) => Promise<void>> = [
  // Sandbox deposit wallets of the demo assets (USD 2 decimals, BTC 8); the addresses are marked not real.
  async (deps) => {
    const { mode } = deps.config;
    await putWallet(deps, 'system:seed', { assetSymbol: 'USD', network: 'wire', address: walletAddressFor(mode, 'usd-acct-0001-demo') });
    await putWallet(deps, 'system:seed', { assetSymbol: 'BTC', network: 'bitcoin', address: walletAddressFor(mode, 'btc-bc1q-demo-0001') });
  },
  // BTC/USD priced at the simulated market, so the demo key can quote, order and be approved.
  async (deps) => {
    await seedDemoPairs(deps);
  },
];

export async function runDemoSteps(deps: AppDeps, demo: DemoSeed): Promise<void> {
  for (const step of demoSteps) await step(deps, demo);
}
