import { parsePairTerms } from '../domain/market/pair-terms.ts';
import { putPair } from '../usecases/market/put-pair.ts';
import type { UseCaseDeps } from '../usecases/ports.ts';

/**
 * Sandbox demo: BTC/USD priced at 65000.00 with a 0.5% spread, a 0.1% venue fee and a 1.00 USD fixed
 * fee, for 0.0001 to 10 BTC, so the README walkthrough can quote, order and approve at once.
 */
export async function seedDemoPairs(d: Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>): Promise<void> {
  await putPair(
    d,
    'system:seed',
    'BTC',
    'USD',
    parsePairTerms('BTC', 'USD', {
      midRate: '65000.00',
      spreadBps: 50,
      feeBps: 10,
      fixedFeeQuoteMinor: 100n,
      minBaseMinor: 10_000n,
      maxBaseMinor: 1_000_000_000n,
    }),
  );
}
