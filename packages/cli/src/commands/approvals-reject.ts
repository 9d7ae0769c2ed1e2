import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { APPROVAL_KINDS, kindArg, type ApprovalKind } from './approvals-approve.ts';
import { outcomeText } from './approvals-render.ts';

/** `cambio approvals reject KIND ID [--reason]` (portal:approve): the request ends rejected, its hold released. */
export function register(approvals: Command, ctx: Ctx): void {
  approvals
    .command('reject')
    .description('reject a request that waits for the organization: it ends, its hold released')
    .argument('<kind>', APPROVAL_KINDS.join(' | '), kindArg)
    .argument('<id>', 'the request')
    .option('--reason <text>', 'why, kept with the request')
    .action(async (kind: ApprovalKind, id: string, f: { reason?: string }) => {
      const o = await ctx.asMember((portal) => portal.approvals.reject(kind, id, f.reason ? { reason: f.reason } : {}));
      ctx.print(o, () => outcomeText(o));
    });
}
