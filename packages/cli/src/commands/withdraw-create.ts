import { PermissionError, type Cambio, type Withdrawal } from '@cambio/sdk';
import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import { amountArg, symbolArg, wholeNumber, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

export const withdrawalLines = (w: Withdrawal): Array<[string, unknown]> => [
  ['withdrawal', w.id],
  ['state', w.state],
  ['amount', w.money],
  ['destination', `${w.destinationId} (${w.destinationSummary})`],
  ...(w.reason ? [['reason', w.reason] as [string, unknown]] : []),
  ['created at', w.createdAt],
];

interface Flags {
  asset?: string;
  decimals?: number;
}

const HELP = `
With --asset and --decimals nothing is read before the request, so a key with portal:withdraw alone
works (the server refuses decimals that are not the asset's with a 422). Without them the CLI reads
the destination's asset and the asset's decimals, which needs portal:read.

A withdrawal is not safe to repeat. When its answer is lost the SDK reads GET /withdrawals (needs
portal:read) for the one it made; if it cannot tell, cambio exits 6: read \`cambio withdraw list\`
before trying again.`;

/** The asset of a destination, read from the destinations list (portal:read). */
async function assetOf(c: Cambio, destinationId: string): Promise<string> {
  let list: Awaited<ReturnType<Cambio['withdrawals']['destinations']>>;
  try {
    list = await c.withdrawals.destinations();
  } catch (e) {
    if (e instanceof PermissionError)
      throw new UsageError(`this key cannot read destinations (${e.code}); give --asset SYMBOL and --decimals N`);
    throw e;
  }
  const dest = list.find((d) => d.id === destinationId);
  if (!dest) throw new UsageError(`no destination ${destinationId} (see: cambio withdraw destinations)`);
  return dest.assetSymbol;
}

export function register(withdraw: Command, ctx: Ctx): void {
  withdraw
    .command('create <destinationId> <amount>')
    .description("request a withdrawal of AMOUNT (a decimal) of the destination's asset; held until a person approves it")
    .option('--asset <symbol>', "the destination's asset (skips reading the destinations)", symbolArg)
    .option(
      '--decimals <n>',
      "the asset's decimals as the API reports them, e.g. assetDecimals in `cambio balances --json` (skips reading the balances)",
      wholeNumber,
    )
    .addHelpText('after', HELP)
    .action(async (destinationId: string, amount: string, f: Flags) => {
      const c = ctx.sdk();
      const assetSymbol = f.asset ?? (await assetOf(c, destinationId));
      let assetDecimals = f.decimals;
      if (assetDecimals === undefined) {
        try {
          assetDecimals = await ctx.decimalsOf(c, assetSymbol, undefined);
        } catch (e) {
          if (e instanceof PermissionError) throw new UsageError(`this key cannot read balances (${e.code}); give --decimals N`);
          throw e;
        }
      }
      const r = await c.withdrawals.create({ destinationId, assetSymbol, assetDecimals, amountMinor: amountArg(amount, assetDecimals) });
      ctx.reportOutcome(r, 'withdrawal');
      ctx.print(
        r.data,
        () => `${kv(withdrawalLines(r.data))}\n\nnothing has left yet: a person at the operator approves it (see: cambio withdraw list)`,
      );
    });
}
