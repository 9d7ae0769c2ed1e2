import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { policyText } from './policy-render.ts';

/** `cambio policy show`: the organization's approval rules (a member's sign-in, portal:read). */
export function register(policy: Command, ctx: Ctx): void {
  policy
    .command('show')
    .description('the rules in order; the first that matches a request decides how many more members approve it')
    .action(async () => {
      const p = await ctx.asMember((portal) => portal.policy.get());
      ctx.print(p, () => policyText(p));
    });
}
