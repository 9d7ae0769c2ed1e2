import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { money, table } from '../output.ts';

/** `cambio pairs`: what can be quoted now, and the base amounts a quote accepts. */
export function register(program: Command, ctx: Ctx): void {
  program
    .command('pairs')
    .description('the pairs that can be quoted now, with the smallest and largest base amount')
    .action(async () => {
      const pairs = await ctx.sdk().market.pairs();
      ctx.print(pairs, () =>
        table(
          ['BASE', 'QUOTE', 'MIN', 'MAX'],
          pairs.map((p) => [
            p.baseSymbol,
            p.quoteSymbol,
            money({ assetSymbol: p.baseSymbol, assetDecimals: p.baseDecimals, amountMinor: p.minBaseMinor }),
            money({ assetSymbol: p.baseSymbol, assetDecimals: p.baseDecimals, amountMinor: p.maxBaseMinor }),
          ]),
        ),
      );
    });
}
