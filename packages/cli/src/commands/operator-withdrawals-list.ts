import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { withListOptions, type ListFlags } from './list-options.ts';
import { all } from './operator-render.ts';

/** `cambio operator withdrawals list`: withdrawal requests of every organization. */
export function register(withdrawals: Command, ctx: Ctx): void {
  withListOptions(withdrawals.command('list').description('newest first').option('--state <state>', 'e.g. pending_approval')).action(
    async (f: ListFlags & { state?: string }) => {
      const op = ctx.operator();
      const items = f.all
        ? await all(op.withdrawals.iterate({ ...(f.state ? { state: f.state } : {}) }))
        : (await op.withdrawals.list(f)).items;
      ctx.print(items, () =>
        table(
          ['WITHDRAWAL', 'ORGANIZATION', 'STATE', 'AMOUNT', 'DESTINATION', 'CREATED'],
          items.map((w) => [w.id, w.organizationId, w.state, w.money, w.destinationSummary, w.createdAt]),
        ),
      );
    },
  );
}
