import type { Command } from 'commander';
import { symbolArg, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

interface Flags {
  label: string;
  asset: string;
  network: string;
  address: string;
  memo?: string;
}

/** `cambio withdraw register-crypto`: a crypto address as a destination (docs/api-guide.md "Crypto destinations"). */
export function register(withdraw: Command, ctx: Ctx): void {
  withdraw
    .command('register-crypto')
    .description("register a crypto address as a destination; usable after a cooldown and the operator's registration in the market")
    .requiredOption('--label <text>', 'a name for it')
    .requiredOption('--asset <symbol>', 'the asset it receives')
    .requiredOption('--network <name>', 'the chain, named as in: cambio deposit wallets (e.g. BTC, ETH)')
    .requiredOption('--address <address>', 'the address; checked for the network')
    .option('--memo <text>', 'a memo or tag the receiver needs')
    .action(async (f: Flags) => {
      const r = await ctx.sdk().destinations.createCrypto({
        label: f.label,
        assetSymbol: symbolArg(f.asset),
        network: f.network,
        address: f.address,
        ...(f.memo !== undefined ? { memo: f.memo } : {}),
      });
      ctx.reportOutcome(r, 'destination');
      const d = r.data;
      ctx.print(d, () =>
        kv([
          ['destination', d.id],
          ['label', d.label],
          ['asset', d.assetSymbol],
          ['network', d.network ?? ''],
          ['address', d.address ?? ''],
          ['summary', d.summary],
          ['usable', d.usable ? 'yes' : 'not yet (cooldown, then registration in the market)'],
        ]),
      );
    });
}
