import type { PortalApprovalOutcome } from '@cambio/sdk';
import { InvalidArgumentError, type Command } from 'commander';
import type { Ctx } from '../context.ts';
import { outcomeText } from './approvals-render.ts';

export type ApprovalKind = PortalApprovalOutcome['kind'];
export const APPROVAL_KINDS: readonly ApprovalKind[] = ['orders', 'withdrawals', 'destinations', 'policy'];

/** `orders`, `withdrawals`, `destinations` or `policy`. */
export function kindArg(v: string): ApprovalKind {
  if (!(APPROVAL_KINDS as readonly string[]).includes(v)) throw new InvalidArgumentError(`one of ${APPROVAL_KINDS.join(', ')}`);
  return v as ApprovalKind;
}

/** `cambio approvals approve KIND ID` (portal:approve): one more member agrees; not the one who asked. */
export function register(approvals: Command, ctx: Ctx): void {
  approvals
    .command('approve')
    .description('approve a request that waits for the organization (not your own)')
    .argument('<kind>', APPROVAL_KINDS.join(' | '), kindArg)
    .argument('<id>', 'the request')
    .action(async (kind: ApprovalKind, id: string) => {
      const o = await ctx.asMember((portal) => portal.approvals.approve(kind, id));
      ctx.print(o, () => outcomeText(o));
    });
}
