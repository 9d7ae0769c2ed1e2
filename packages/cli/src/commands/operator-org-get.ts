import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { orgText } from './operator-render.ts';

/** `cambio operator org get`. */
export function register(org: Command, ctx: Ctx): void {
  org
    .command('get <id>')
    .description('read an organization')
    .action(async (id: string) => {
      const o = await ctx.operator().organizations.get(id);
      ctx.print(o, () => orgText(o));
    });
}
