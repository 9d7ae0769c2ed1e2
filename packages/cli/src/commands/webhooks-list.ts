import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';

/** `cambio webhooks list`: the organization's endpoints and their status; never a secret. */
export function register(webhooks: Command, ctx: Ctx): void {
  webhooks
    .command('list')
    .description('webhook endpoints and their status (disabled after failing for three days); never a secret')
    .action(async () => {
      const list = await ctx.sdk().webhooks.list();
      ctx.print(list, () =>
        table(
          ['WEBHOOK', 'URL', 'EVENTS', 'STATUS', 'FAILING SINCE'],
          list.map((w) => [w.id, w.url, w.types ? w.types.join(', ') : 'all', w.status, w.failingSince ?? '-']),
        ),
      );
    });
}
