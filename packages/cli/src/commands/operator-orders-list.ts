import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { withListOptions, type ListFlags } from './list-options.ts';
import { all } from './operator-render.ts';

/** `cambio operator orders list`: exchange requests of every organization. */
export function register(orders: Command, ctx: Ctx): void {
  withListOptions(orders.command('list').description('newest first').option('--state <state>', 'e.g. pending_approval')).action(
    async (f: ListFlags & { state?: string }) => {
      const op = ctx.operator();
      const items = f.all ? await all(op.orders.iterate({ ...(f.state ? { state: f.state } : {}) })) : (await op.orders.list(f)).items;
      ctx.print(items, () =>
        table(
          ['ORDER', 'ORGANIZATION', 'STATE', 'DELIVER', 'RECEIVE', 'CREATED'],
          items.map((o) => [o.id, o.organizationId, o.state, o.base, o.quote, o.createdAt]),
        ),
      );
    },
  );
}
