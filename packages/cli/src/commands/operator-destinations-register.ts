import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio operator destinations register`: the destination is registered in the market. */
export function register(destinations: Command, ctx: Ctx): void {
  destinations
    .command('register <destinationId>')
    .description('record that the destination is registered in the market')
    .action(async (id: string) => {
      const d = await ctx.operator().destinations.registerInMarket(id);
      ctx.print(d, () =>
        kv([
          ['destination', d.id],
          ['registered in market', d.registeredInMarketAt],
          ['cooldown until', d.cooldownUntil],
          ['usable', d.usable ? 'yes' : 'no'],
        ]),
      );
    });
}
