import type { ClientStatus } from '@cambio/sdk';
import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { parseLimits } from './operator-helpers.ts';
import { orgText, statusArg } from './operator-render.ts';

/** `cambio operator org create`. */
export function register(org: Command, ctx: Ctx): void {
  org
    .command('create')
    .description('create an organization (status draft unless given; no limits loaded unless given)')
    .requiredOption('--name <name>', 'its name')
    .option('--status <status>', 'draft, active or suspended', statusArg)
    .option('--limits <json>', "caps per asset in minimum units; '{}' = loaded, no caps")
    .action(async (f: { name: string; status?: ClientStatus; limits?: string }) => {
      const o = await ctx.operator().organizations.create({
        name: f.name,
        ...(f.status ? { status: f.status } : {}),
        ...(f.limits !== undefined ? { limits: parseLimits(f.limits) } : {}),
      });
      ctx.print(o, () => orgText(o));
    });
}
