import type { Command } from 'commander';
import { wholeNumber, type Ctx } from '../context.ts';
import { table } from '../output.ts';

// The SDK reads every integer losslessly, so before/after may hold bigints: written as digits.
const brief = (v: unknown) =>
  v === null || v === undefined ? '' : JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

/** `cambio operator audit`: every operator decision, newest first (who, what, when, before, after). */
export function register(operator: Command, ctx: Ctx): void {
  operator
    .command('audit')
    .description('the audit trail of operator decisions, newest first')
    .option('--subject <id>', 'only decisions about this order, withdrawal, organization…')
    .option('--action <action>', 'only this action, e.g. order.approve')
    .option('--page <n>', 'page number, from 1', wholeNumber)
    .option('--limit <n>', 'items per page, 1 to 100 (API default 10)', wholeNumber)
    .action(async (f: { subject?: string; action?: string; page?: number; limit?: number }) => {
      const p = await ctx.operator().audit.list({
        ...(f.subject ? { subjectId: f.subject } : {}),
        ...(f.action ? { action: f.action } : {}),
        ...(f.page !== undefined ? { page: f.page } : {}),
        ...(f.limit !== undefined ? { limit: f.limit } : {}),
      });
      ctx.print(p.items, () =>
        table(
          ['WHEN', 'ACTOR', 'ACTION', 'SUBJECT', 'BEFORE', 'AFTER'],
          p.items.map((a) => [a.createdAt, a.actor, a.action, `${a.subjectType} ${a.subjectId}`, brief(a.before), brief(a.after)]),
        ),
      );
      const { page, totalPages, total } = p.pagination;
      if (!ctx.json && totalPages > 1) ctx.note(`page ${page} of ${totalPages} (${total} in all); --page N for more`);
    });
}
