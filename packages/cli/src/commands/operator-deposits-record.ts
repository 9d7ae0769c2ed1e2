import type { Command } from 'commander';
import { symbolArg, type Ctx } from '../context.ts';
import { operatorAmount } from './operator-helpers.ts';
import { depositText } from './operator-render.ts';

/** `cambio operator deposits record`: money that arrived, matched to an open declaration by exact amount. */
export function register(deposits: Command, ctx: Ctx): void {
  deposits
    .command('record <asset> <amount>')
    .description('record money that arrived (AMOUNT as a decimal); matched to an open declaration by exact amount')
    .requiredOption('--network <chain>', 'the chain it arrived on')
    .requiredOption('--txid <id>', 'transaction id (recorded once)')
    .action(async (assetArg: string, amount: string, f: { network: string; txid: string }) => {
      const op = ctx.operator();
      const assetSymbol = symbolArg(assetArg);
      const d = await op.deposits.record({
        assetSymbol,
        network: f.network,
        txid: f.txid,
        amountMinor: await operatorAmount(op, assetSymbol, amount),
      });
      ctx.print(d, () => depositText(d));
    });
}
