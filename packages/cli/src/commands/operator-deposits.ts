import type { OperatorDeposit } from '@cambio/sdk';
import type { Command } from 'commander';
import { symbolArg, type Ctx } from '../context.ts';
import { kv, table } from '../output.ts';
import { withListOptions } from './list-options.ts';
import { operatorAmount } from './operator-helpers.ts';

const depositText = (d: OperatorDeposit) => kv([['deposit', d.id], ['state', d.state], ['amount', d.money], ['network', d.network], ['txid', d.txid],
  ['organization', d.organizationId ?? 'unattributed (waits for attribution)'], ['declaration', d.declarationId]]);

/** `cambio operator deposits …`: money that arrived, matched by exact amount or attributed by hand. */
export function register(operator: Command, ctx: Ctx): void {
  const deposits = operator.command('deposits').description('arrivals: record, attribute, list');
  withListOptions(deposits.command('list').description('newest first').option('--state <state>', 'credited or unattributed'))
    .action(async (f: { state?: 'credited' | 'unattributed'; page?: number; limit?: number }) => {
      const p = await ctx.operator().deposits.list(f);
      ctx.print(p.items, () => table(['DEPOSIT', 'STATE', 'AMOUNT', 'ORGANIZATION', 'TXID', 'CREATED'], p.items.map((d) => [d.id, d.state, d.money, d.organizationId, d.txid, d.createdAt])));
    });
  deposits.command('record <asset> <amount>').description('record money that arrived (AMOUNT as a decimal); matched to an open declaration by exact amount')
    .requiredOption('--network <chain>', 'the chain it arrived on').requiredOption('--txid <id>', 'transaction id (recorded once)')
    .action(async (assetArg: string, amount: string, f: { network: string; txid: string }) => {
      const op = ctx.operator();
      const assetSymbol = symbolArg(assetArg);
      const d = await op.deposits.record({ assetSymbol, network: f.network, txid: f.txid, amountMinor: await operatorAmount(op, assetSymbol, amount) });
      ctx.print(d, () => depositText(d));
    });
  deposits.command('attribute <depositId> <organizationId>').description('credit an unattributed arrival by hand')
    .action(async (id: string, organizationId: string) => {
      const d = await ctx.operator().deposits.attribute(id, organizationId);
      ctx.print(d, () => depositText(d));
    });
}
