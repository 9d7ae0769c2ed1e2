import { parseDecimal, type Withdrawal } from '@cambio/sdk';
import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import type { Ctx } from '../context.ts';
import { kv } from '../output.ts';

export const withdrawalLines = (w: Withdrawal): Array<[string, unknown]> => [
  ['withdrawal', w.id], ['state', w.state], ['amount', w.money], ['destination', `${w.destinationId} (${w.destinationSummary})`],
  ...(w.reason ? [['reason', w.reason] as [string, unknown]] : []), ['created at', w.createdAt],
];

export function register(withdraw: Command, ctx: Ctx): void {
  withdraw.command('create <destinationId> <amount>')
    .description('request a withdrawal of AMOUNT (a decimal) of the destination\'s asset; held until a person approves it')
    .action(async (destinationId: string, amount: string) => {
      const c = ctx.sdk();
      const dest = (await c.withdrawals.destinations()).find((d) => d.id === destinationId);
      if (!dest) throw new UsageError(`no destination ${destinationId} (see: cambio withdraw destinations)`);
      const assetDecimals = await ctx.decimalsOf(c, dest.assetSymbol, undefined);
      const r = await c.withdrawals.create({ destinationId, assetSymbol: dest.assetSymbol, assetDecimals, amountMinor: parseDecimal(amount, assetDecimals) });
      ctx.reportOutcome(r, 'withdrawal');
      ctx.print(r.data, () => `${kv(withdrawalLines(r.data))}\n\nnothing has left yet: a person at the operator approves it (see: cambio withdraw list)`);
    });
}
