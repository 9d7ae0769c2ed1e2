import type { Permission } from '@cambio/sdk';
import type { Command } from 'commander';
import { commaList, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio operator member update`. */
export function register(member: Command, ctx: Ctx): void {
  member
    .command('update <memberId>')
    .description("change the person's role (applies to their keys at the next request)")
    .requiredOption('--permissions <list>', 'comma-separated permissions', commaList)
    .action(async (memberId: string, f: { permissions: string[] }) => {
      const m = await ctx.operator().members.update(memberId, { permissions: f.permissions as Permission[] });
      ctx.print(m, () =>
        kv([
          ['member', m.id],
          ['permissions', m.permissions],
        ]),
      );
    });
}
