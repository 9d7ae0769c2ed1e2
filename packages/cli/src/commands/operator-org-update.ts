import type { ClientStatus } from '@cambio/sdk';
import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { parseLimits } from './operator-helpers.ts';
import { orgText, statusArg } from './operator-render.ts';

/** `cambio operator org update`. */
export function register(org: Command, ctx: Ctx): void {
  org
    .command('update <id>')
    .description('change status or load limits')
    .option('--status <status>', 'draft, active or suspended', statusArg)
    .option('--limits <json>', "caps per asset in minimum units; '{}' or null")
    .action(async (id: string, f: { status?: ClientStatus; limits?: string }) => {
      const o = await ctx.operator().organizations.update(id, {
        ...(f.status ? { status: f.status } : {}),
        ...(f.limits !== undefined ? { limits: parseLimits(f.limits) } : {}),
      });
      ctx.print(o, () => orgText(o));
    });
}
