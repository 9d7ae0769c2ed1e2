import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';

/** `cambio operator assets list`: what the market lists, with decimals. */
export function register(assets: Command, ctx: Ctx): void {
  assets.command('list').action(async () => {
    const list = await ctx.operator().market.assets();
    ctx.print(list, () =>
      table(
        ['ASSET', 'DECIMALS'],
        list.map((a) => [a.symbol, a.decimals]),
      ),
    );
  });
}
