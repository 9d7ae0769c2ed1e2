import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import type { Ctx } from '../context.ts';
import { operatorAmount } from './operator-helpers.ts';
import { runText } from './operator-render.ts';

/** `cambio operator reconciliation run`: compare the books with the market; a mismatch stops client operations. */
export function register(rec: Command, ctx: Ctx): void {
  rec
    .command('run')
    .description("compare now; without --market, with the simulated venue's balances")
    .option('--market <asset=amount...>', "the market's balance of an asset, as a decimal (repeatable)")
    .action(async (f: { market?: string[] }) => {
      const op = ctx.operator();
      const marketBalances = [];
      for (const item of f.market ?? []) {
        const m = /^([A-Za-z0-9]{2,12})=([0-9.]+)$/.exec(item);
        if (!m) throw new UsageError(`--market ${item}: expected ASSET=AMOUNT, e.g. BTC=1.5`);
        const assetSymbol = m[1]!.toUpperCase();
        marketBalances.push({ assetSymbol, amountMinor: await operatorAmount(op, assetSymbol, m[2]!) });
      }
      const r = await op.reconciliation.run(f.market ? { marketBalances } : {});
      ctx.print(r, () => `${runText(r)}\n\nreconciled now: ${r.reconciled ? 'yes' : 'NO'}`);
    });
}
