import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { money, table } from '../output.ts';
import { printList, withListOptions, type ListFlags } from './list-options.ts';

export function register(program: Command, ctx: Ctx): void {
  withListOptions(program.command('ledger').description('movements of the organization\'s accounts, newest first'))
    .action(async (flags: ListFlags) => {
      const c = ctx.sdk();
      await printList(ctx, flags, (p) => c.ledger.list(p), () => c.ledger.iterate(), (items) => table(['WHEN', 'KIND', 'ACCOUNT', 'AMOUNT', 'REFERENCE'],
        items.map((e) => [e.createdAt, e.kind, e.account, money(e), e.referenceId ?? e.memo])));
    });
}
