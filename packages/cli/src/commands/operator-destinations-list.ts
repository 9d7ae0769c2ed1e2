import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { table } from '../output.ts';
import { withListOptions } from './list-options.ts';

/** `cambio operator destinations list`: every organization's destinations, masked. */
export function register(destinations: Command, ctx: Ctx): void {
  withListOptions(destinations.command('list').description('newest first').option('--org <organizationId>', 'one organization')).action(
    async (f: { org?: string; page?: number; limit?: number }) => {
      const p = await ctx.operator().destinations.list({
        ...(f.org ? { organizationId: f.org } : {}),
        ...(f.page ? { page: f.page } : {}),
        ...(f.limit ? { limit: f.limit } : {}),
      });
      ctx.print(p.items, () =>
        table(
          ['DESTINATION', 'ORGANIZATION', 'LABEL', 'ASSET', 'SUMMARY', 'HOLDER', 'COOLDOWN UNTIL', 'IN MARKET', 'USABLE'],
          p.items.map((d) => [
            d.id,
            d.organizationId,
            d.label,
            d.assetSymbol,
            d.summary,
            d.holderName,
            d.cooldownUntil,
            d.registeredInMarketAt,
            d.usable ? 'yes' : 'no',
          ]),
        ),
      );
    },
  );
}
