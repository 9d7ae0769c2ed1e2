import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import type { Ctx } from '../context.ts';
import { kv, money } from '../output.ts';

/** `cambio cancel order|withdrawal <id>`: a request still pending_approval is cancelled and its hold released; a decided one exits 2 (409). */
export function register(program: Command, ctx: Ctx): void {
  program.command('cancel <kind> <id>')
    .description('cancel an order or a withdrawal still pending_approval: its hold is released')
    .action(async (kind: string, id: string) => {
      const c = ctx.sdk();
      if (kind === 'order') {
        const o = await c.orders.cancel(id);
        return ctx.print(o, () => kv([['order', o.id], ['state', o.state], ['released', money(o.base)]]));
      }
      if (kind === 'withdrawal') {
        const w = await c.withdrawals.cancel(id);
        return ctx.print(w, () => kv([['withdrawal', w.id], ['state', w.state], ['released', money(w.money)]]));
      }
      throw new UsageError('cancel what? order or withdrawal');
    });
}
