import type { Permission } from '@cambio/sdk';
import type { Command } from 'commander';
import { commaList, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio operator member add`. */
export function register(member: Command, ctx: Ctx): void {
  member
    .command('add <organizationId>')
    .description('add a person')
    .requiredOption('--name <name>', 'name')
    .requiredOption('--email <email>', 'email')
    .requiredOption(
      '--permissions <list>',
      'comma-separated: portal:read,portal:trade,portal:deposit,portal:destinations,portal:withdraw,portal:api_keys',
      commaList,
    )
    .action(async (organizationId: string, f: { name: string; email: string; permissions: string[] }) => {
      const m = await ctx
        .operator()
        .members.add(organizationId, { name: f.name, email: f.email, permissions: f.permissions as Permission[] });
      ctx.print(m, () =>
        kv([
          ['member', m.id],
          ['organization', m.organizationId],
          ['name', m.name],
          ['email', m.email],
          ['permissions', m.permissions],
        ]),
      );
    });
}
