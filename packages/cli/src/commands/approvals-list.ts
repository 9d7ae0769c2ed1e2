import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';

/** `cambio approvals list`: what waits for the organization's members, oldest first. */
export function register(approvals: Command, ctx: Ctx): void {
  approvals
    .command('list')
    .description("requests that wait for the organization's members, oldest first, with who asked and who approved")
    .action(async () => {
      const list = await ctx.asMember((portal) => portal.approvals.list({ state: 'waiting' }));
      ctx.print(list, () =>
        table(
          ['KIND', 'REQUEST', 'AMOUNT', 'WHAT', 'ASKED BY', 'APPROVED BY', 'MORE NEEDED', 'CREATED'],
          list.map((a) => [
            a.kind,
            a.id,
            a.money,
            a.summary,
            a.requestedBy.name,
            a.approvals.given.map((g) => g.name).join(', ') || '-',
            a.approvals.required - a.approvals.given.length,
            a.createdAt,
          ]),
        ),
      );
    });
}
