import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import type { Ctx } from '../context.ts';
import { kv, money } from '../output.ts';

/**
 * `cambio cancel order|withdrawal|declaration <id>`: a request still pending_approval is cancelled and its
 * hold released; a decided one exits 2 (409). An open deposit declaration stops matching; cancelling it
 * again answers the same (exit 0), a matched or expired one exits 2 (409 deposits.declaration_not_open).
 */
export function register(program: Command, ctx: Ctx): void {
  program
    .command('cancel <kind> <id>')
    .description('cancel an order or a withdrawal still pending_approval (its hold is released), or an open deposit declaration')
    .addHelpText(
      'after',
      `
Kinds:
  order         an exchange request still pending_approval; a decided one exits 2 (409)
  withdrawal    a withdrawal still pending_approval; a decided one exits 2 (409)
  declaration   the open deposit declaration (its id is in \`cambio deposit open\`): it stops matching at once,
                and a transfer that still arrives waits for manual attribution. Cancelling it again answers
                the same; a matched or expired one exits 2 (409 deposits.declaration_not_open).`,
    )
    .action(async (kind: string, id: string) => {
      const c = ctx.sdk();
      if (kind === 'order') {
        const o = await c.orders.cancel(id);
        return ctx.print(o, () =>
          kv([
            ['order', o.id],
            ['state', o.state],
            ['released', money(o.base)],
          ]),
        );
      }
      if (kind === 'withdrawal') {
        const w = await c.withdrawals.cancel(id);
        return ctx.print(w, () =>
          kv([
            ['withdrawal', w.id],
            ['state', w.state],
            ['released', money(w.money)],
          ]),
        );
      }
      if (kind === 'declaration') {
        const d = await c.deposits.cancelDeclaration(id);
        return ctx.print(
          d,
          () =>
            `${kv([
              ['declaration', d.id],
              ['reference', d.reference],
              ['state', d.state],
              ['was to send', `${d.expectedAmount} ${d.assetSymbol}`],
            ])}\n\n` + 'a transfer of that amount that still arrives is not matched: it waits for manual attribution',
        );
      }
      throw new UsageError('cancel what? order, withdrawal or declaration');
    });
}
