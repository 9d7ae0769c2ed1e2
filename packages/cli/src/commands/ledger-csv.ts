import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { filtersOf, withFilters, type ListFlags } from './list-options.ts';

/** `cambio ledger-csv > ledger.csv`: the whole filtered ledger as the server's RFC 4180 file, written as is. */
export function register(program: Command, ctx: Ctx): void {
  withFilters(program.command('ledger-csv').description('the ledger as a CSV file for accountants, oldest first, on stdout'), null)
    .option('--asset <symbol>', 'only this asset')
    .action(async (flags: ListFlags) => {
      ctx.io.stdout(await ctx.sdk().ledger.csv(filtersOf(flags)));
    });
}
