import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { kv, money } from '../output.ts';

export function register(program: Command, ctx: Ctx): void {
  program
    .command('client')
    .description('the organization behind the key, whether it can operate, and what the key may do')
    .action(async () => {
      const c = await ctx.sdk().client.get();
      // A cap is shown in the asset's units when the market lists the asset, else in minimum units.
      const cap = (v: bigint | null, decimals: number | null, asset: string) =>
        v === null
          ? 'no cap'
          : decimals === null
            ? `${v} (minimum units)`
            : money({ assetSymbol: asset, assetDecimals: decimals, amountMinor: v });
      const limits =
        c.limits === null
          ? 'none loaded (cannot operate)'
          : c.limits.length === 0
            ? 'no caps'
            : c.limits.map(
                (l) =>
                  `${l.assetSymbol}: order ${cap(l.maxOrderMinor, l.assetDecimals, l.assetSymbol)}, withdrawal ${cap(l.maxWithdrawalMinor, l.assetDecimals, l.assetSymbol)}`,
              );
      ctx.print(c, () =>
        kv([
          ['id', c.id],
          ['name', c.name],
          ['status', c.status],
          ['can operate', c.canOperate ? 'yes' : 'no (only quotes work)'],
          ['permissions', c.permissions],
          ['limits', limits],
        ]),
      );
    });
}
