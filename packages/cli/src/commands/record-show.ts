import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import type { Ctx } from '../context.ts';
import { kv, money } from '../output.ts';

const KINDS = ['order', 'withdrawal', 'deposit', 'quote'] as const;

/** `cambio show order|withdrawal|deposit|quote <id>`: one record by id, to poll its state. */
export function register(program: Command, ctx: Ctx): void {
  program
    .command('show <kind> <id>')
    .description(`one record by id: ${KINDS.join(', ')} (another organization's id is not found)`)
    .action(async (kind: string, id: string) => {
      const c = ctx.sdk();
      switch (kind) {
        case 'order': {
          const o = await c.orders.get(id);
          return ctx.print(o, () =>
            kv([
              ['order', o.id],
              ['state', o.state],
              ['deliver', money(o.base)],
              ['receive', money(o.quote)],
              ['created', o.createdAt],
              ['updated', o.updatedAt],
              ['reason', o.reason],
            ]),
          );
        }
        case 'withdrawal': {
          const w = await c.withdrawals.get(id);
          return ctx.print(w, () =>
            kv([
              ['withdrawal', w.id],
              ['state', w.state],
              ['amount', money(w.money)],
              ['destination', w.destinationId],
              ['created', w.createdAt],
              ['updated', w.updatedAt],
            ]),
          );
        }
        case 'deposit': {
          const d = await c.deposits.get(id);
          return ctx.print(d, () =>
            kv([
              ['deposit', d.id],
              ['state', d.state],
              ['amount', money(d.money)],
              ['created', d.createdAt],
            ]),
          );
        }
        case 'quote': {
          const q = await c.quotes.get(id);
          return ctx.print(q, () =>
            kv([
              ['quote', q.id],
              ['you deliver', money(q.base)],
              ['you receive', money(q.quote)],
              ['expires at', q.expiresAt],
            ]),
          );
        }
        default:
          throw new UsageError(`show what? one of: ${KINDS.join(', ')}`);
      }
    });
}
