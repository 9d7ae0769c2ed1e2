import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { pairRate } from './operator-render.ts';

/** `cambio operator pairs list`: what the market prices. */
export function register(pairs: Command, ctx: Ctx): void {
  pairs.command('list').action(async () => {
    const list = await ctx.operator().market.pairs();
    ctx.print(list, () =>
      table(
        ['PAIR', 'MID RATE', 'SPREAD BPS', 'FEE BPS', 'OFFERED RATE'],
        list.map((p) => [`${p.baseSymbol}/${p.quoteSymbol}`, p.midRate, p.spreadBps, p.feeBps, pairRate(p)]),
      ),
    );
  });
}
