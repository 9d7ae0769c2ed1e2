import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { orderText } from './operator-render.ts';

/** `cambio operator orders reject`: releases the hold. */
export function register(orders: Command, ctx: Ctx): void {
  orders
    .command('reject <orderId>')
    .description('release the hold; the reason is shown to the client')
    .option('--reason <text>', 'why')
    .action(async (id: string, f: { reason?: string }) => {
      const o = await ctx.operator().orders.reject(id, f.reason);
      ctx.print(o, () => orderText(o));
    });
}
