import type { Command } from 'commander';
import type { Ctx } from '../context.ts';

/** `cambio webhooks delete <id>`: nothing more is sent to it. */
export function register(webhooks: Command, ctx: Ctx): void {
  webhooks
    .command('delete <id>')
    .description('delete an endpoint: nothing more is sent to it')
    .action(async (id: string) => {
      const w = await ctx.sdk().webhooks.delete(id);
      ctx.print(w, () => `deleted: ${w.id} (${w.url})`);
    });
}
