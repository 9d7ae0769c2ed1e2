import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { kv } from '../output.ts';

export function register(program: Command, ctx: Ctx): void {
  program.command('client')
    .description('the organization behind the key, whether it can operate, and what the key may do')
    .action(async () => {
      const c = await ctx.sdk().client.get();
      ctx.print(c, () => kv([['id', c.id], ['name', c.name], ['status', c.status], ['can operate', c.canOperate ? 'yes' : 'no (only quotes work)'], ['permissions', c.permissions]]));
    });
}
