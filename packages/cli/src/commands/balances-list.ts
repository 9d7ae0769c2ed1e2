import { formatMinor } from '@cambio/sdk';
import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';

export function register(program: Command, ctx: Ctx): void {
  program
    .command('balances')
    .description('available, held and total per asset (held backs requests awaiting approval)')
    .action(async () => {
      const rows = await ctx.sdk().balances.list();
      ctx.print(rows, () =>
        table(
          ['ASSET', 'AVAILABLE', 'HELD', 'TOTAL'],
          rows.map((b) => [
            b.assetSymbol,
            formatMinor(b.amountMinor, b.assetDecimals),
            formatMinor(b.heldMinor, b.assetDecimals),
            formatMinor(b.totalMinor, b.assetDecimals),
          ]),
        ),
      );
    });
}
