import type { ListParams, Page } from '@cambio/sdk';
import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { wholeNumber } from '../context.ts';

export interface ListFlags {
  page?: number;
  limit?: number;
  all?: boolean;
  state?: string;
  from?: string;
  to?: string;
  asset?: string;
}

/** The list's filters as the SDK takes them: `--state`, `--from` (inclusive), `--to` (exclusive), `--asset`. */
export function filtersOf(flags: ListFlags): { state?: never; createdFrom?: string; createdTo?: string; assetSymbol?: string } {
  return {
    ...(flags.state !== undefined ? { state: flags.state as never } : {}),
    ...(flags.from !== undefined ? { createdFrom: flags.from } : {}),
    ...(flags.to !== undefined ? { createdTo: flags.to } : {}),
    ...(flags.asset !== undefined ? { assetSymbol: flags.asset.trim().toUpperCase() } : {}),
  };
}

/** The states an exchange request and a withdrawal request both go through (the API's state filter). */
export const REQUEST_STATES = ['pending_approval', 'approved', 'completed', 'rejected', 'failed', 'cancelled'];

/** `--from` / `--to` (RFC 3339 date-times, e.g. 2026-01-31T00:00:00Z) and, for lists with states, `--state`. */
export function withFilters(cmd: Command, states: string[] | null): Command {
  if (states) cmd.option('--state <state>', `only this state: ${states.join(', ')}`);
  return cmd
    .option('--from <date-time>', 'only records created at or after this instant (e.g. 2026-01-01T00:00:00Z)')
    .option('--to <date-time>', 'only records created before this instant');
}

/** `--page`, `--limit` (one page, as the API pages) or `--all` (every page, newest first). */
export function withListOptions(cmd: Command): Command {
  return cmd
    .option('--page <n>', 'page number, from 1', wholeNumber)
    .option('--limit <n>', 'items per page, 1 to 100 (API default 10)', wholeNumber)
    .option('--all', 'walk every page');
}

/** Prints a list: JSON array for scripts, or a table with the page position on stderr. */
export async function printList<T>(
  ctx: Ctx,
  flags: ListFlags,
  one: (p: ListParams) => Promise<Page<T>>,
  every: () => AsyncIterable<T>,
  render: (items: T[]) => string,
): Promise<void> {
  if (flags.all) {
    const items: T[] = [];
    for await (const x of every()) items.push(x);
    ctx.print(items, () => render(items));
    return;
  }
  const p = await one({
    ...(flags.page !== undefined ? { page: flags.page } : {}),
    ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
  });
  ctx.print(p.items, () => render(p.items));
  const { page, totalPages, total } = p.pagination;
  if (!ctx.json && totalPages > 1) ctx.note(`page ${page} of ${totalPages} (${total} in all); --page N or --all for more`);
}
