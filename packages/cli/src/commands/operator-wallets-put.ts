import type { Command } from 'commander';
import { symbolArg, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio operator wallets put`: set the wallet of an asset. */
export function register(wallets: Command, ctx: Ctx): void {
  wallets
    .command('put <symbol>')
    .description('set the wallet of an asset')
    .requiredOption('--network <chain>', 'the chain')
    .requiredOption('--address <address>', 'the address')
    .action(async (symbol: string, f: { network: string; address: string }) => {
      const w = await ctx.operator().wallets.put(symbolArg(symbol), f);
      ctx.print(w, () =>
        kv([
          ['asset', w.assetSymbol],
          ['network', w.network],
          ['address', w.address],
        ]),
      );
    });
}
