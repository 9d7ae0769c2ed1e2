import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { money, table } from '../output.ts';
import { filtersOf, printList, withFilters, withListOptions, type ListFlags } from './list-options.ts';

export function register(program: Command, ctx: Ctx): void {
  withFilters(withListOptions(program.command('ledger').description("movements of the organization's accounts, newest first")), null)
    .option('--asset <symbol>', 'only this asset')
    .action(async (flags: ListFlags) => {
      const c = ctx.sdk();
      await printList(
        ctx,
        flags,
        (p) => c.ledger.list({ ...p, ...filtersOf(flags) }),
        () => c.ledger.iterate(filtersOf(flags)),
        (items) =>
          table(
            ['WHEN', 'KIND', 'ACCOUNT', 'AMOUNT', 'REFERENCE'],
            items.map((e) => [e.createdAt, e.kind, e.account, money(e), e.referenceId ?? e.memo]),
          ),
      );
    });
}
