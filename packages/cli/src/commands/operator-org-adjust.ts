import type { Command } from 'commander';
import { symbolArg, type Ctx } from '../context.ts';
import { kv } from '../output.ts';
import { operatorAmount } from './operator-helpers.ts';

/** `cambio operator org adjust`: a signed manual ledger adjustment. */
export function register(org: Command, ctx: Ctx): void {
  org
    .command('adjust <id> <asset> <amount>')
    .description('a signed manual ledger adjustment of AMOUNT (a decimal, e.g. -1.50)')
    .requiredOption('--reason <text>', 'why (kept in the audit trail)')
    .action(async (id: string, assetArg: string, amount: string, f: { reason: string }) => {
      const op = ctx.operator();
      const assetSymbol = symbolArg(assetArg);
      const a = await op.organizations.adjust(id, {
        assetSymbol,
        amountMinor: await operatorAmount(op, assetSymbol, amount, true),
        reason: f.reason,
      });
      ctx.print(a, () =>
        kv([
          ['entry', a.entryId],
          ['adjusted', { assetSymbol: a.assetSymbol, assetDecimals: a.assetDecimals, amountMinor: a.amountMinor }],
          ['available now', { assetSymbol: a.assetSymbol, assetDecimals: a.assetDecimals, amountMinor: a.availableMinor }],
        ]),
      );
    });
}
