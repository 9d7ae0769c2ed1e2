import type { Command } from 'commander';
import { amountArg, symbolArg, wholeNumber, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio sandbox deposit <asset> <amount>`: money arrives at the deposit wallet (sandbox only), matched like any arrival. */
export function register(sandbox: Command, ctx: Ctx): void {
  sandbox
    .command('deposit <asset> <amount>')
    .description(
      "simulate money arriving at the asset's deposit wallet (AMOUNT as a decimal): an open declaration of exactly that amount is credited; otherwise it waits unattributed",
    )
    .option('--network <chain>', "the chain it arrives on (default: the wallet's)")
    .option('--txid <id>', 'transaction id (recorded once; default: one is made up)')
    .option('--decimals <n>', 'decimals of the asset, only when the organization holds none of it (the server checks them)', wholeNumber)
    .action(async (assetArg: string, amount: string, f: { network?: string; txid?: string; decimals?: number }) => {
      const assetSymbol = symbolArg(assetArg);
      const c = ctx.sdk();
      const decimals = await ctx.decimalsOf(c, assetSymbol, f.decimals);
      const d = await c.sandbox.deposit({
        assetSymbol,
        amountMinor: amountArg(amount, decimals),
        ...(f.network !== undefined ? { network: f.network } : {}),
        ...(f.txid !== undefined ? { txid: f.txid } : {}),
      });
      ctx.print(d, () =>
        kv([
          ['deposit', d.id],
          ['state', d.state],
          ['amount', d.money],
          ['network', d.network],
          ['txid', d.txid],
        ]),
      );
    });
}
