import type { Command } from 'commander';
import { symbolArg, type Ctx } from '../context.ts';
import { pairText } from './operator-render.ts';

/** `cambio operator pairs delete`: no price for the pair any more. */
export function register(pairs: Command, ctx: Ctx): void {
  pairs
    .command('delete <base> <quote>')
    .description('no price for the pair any more')
    .action(async (b: string, q: string) => {
      const p = await ctx.operator().market.deletePair(symbolArg(b), symbolArg(q));
      ctx.print(p, () => `no longer priced:\n${pairText(p)}`);
    });
}
