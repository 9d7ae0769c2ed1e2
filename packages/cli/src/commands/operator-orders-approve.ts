import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { orderText } from './operator-render.ts';

/** `cambio operator orders approve`: executes at the market and settles. */
export function register(orders: Command, ctx: Ctx): void {
  orders
    .command('approve <orderId>')
    .description('execute at the market and settle')
    .option('--reason <text>', 'why')
    .action(async (id: string, f: { reason?: string }) => {
      const o = await ctx.operator().orders.approve(id, f.reason);
      ctx.print(o, () => orderText(o));
    });
}
