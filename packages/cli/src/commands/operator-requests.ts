import type { OperatorOrder, OperatorWithdrawal } from '@cambio/sdk';
import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { kv, table } from '../output.ts';
import { withListOptions } from './list-options.ts';

interface ListFlags { state?: string; page?: number; limit?: number; all?: boolean }

const orderText = (o: OperatorOrder) => kv([['order', o.id], ['organization', o.organizationId], ['state', o.state], ['deliver', o.base], ['receive', o.quote],
  ['venue paid', o.proceedsQuoteMinor === null ? null : { ...o.quote, amountMinor: o.proceedsQuoteMinor }], ['reason', o.reason], ['updated at', o.updatedAt]]);
const withdrawalText = (w: OperatorWithdrawal) => kv([['withdrawal', w.id], ['organization', w.organizationId], ['state', w.state], ['amount', w.money],
  ['destination', `${w.destinationId} (${w.destinationSummary})`], ['reason', w.reason], ['updated at', w.updatedAt]]);

/** `cambio operator orders|withdrawals|destinations …`: the requests waiting for a person, and the decisions. */
export function register(operator: Command, ctx: Ctx): void {
  const orders = operator.command('orders').description('exchange requests of every organization; approve or reject');
  withListOptions(orders.command('list').description('newest first').option('--state <state>', 'e.g. pending_approval'))
    .action(async (f: ListFlags) => {
      const op = ctx.operator();
      const items = f.all ? await all(op.orders.iterate({ ...(f.state ? { state: f.state } : {}) })) : (await op.orders.list(f)).items;
      ctx.print(items, () => table(['ORDER', 'ORGANIZATION', 'STATE', 'DELIVER', 'RECEIVE', 'CREATED'], items.map((o) => [o.id, o.organizationId, o.state, o.base, o.quote, o.createdAt])));
    });
  for (const verb of ['approve', 'reject'] as const) {
    orders.command(`${verb} <orderId>`).description(verb === 'approve' ? 'execute at the market and settle' : 'release the hold; the reason is shown to the client')
      .option('--reason <text>', 'why').action(async (id: string, f: { reason?: string }) => {
        const o = await ctx.operator().orders[verb](id, f.reason);
        ctx.print(o, () => orderText(o));
      });
  }

  const withdrawals = operator.command('withdrawals').description('withdrawal requests of every organization; approve or reject');
  withListOptions(withdrawals.command('list').description('newest first').option('--state <state>', 'e.g. pending_approval'))
    .action(async (f: ListFlags) => {
      const op = ctx.operator();
      const items = f.all ? await all(op.withdrawals.iterate({ ...(f.state ? { state: f.state } : {}) })) : (await op.withdrawals.list(f)).items;
      ctx.print(items, () => table(['WITHDRAWAL', 'ORGANIZATION', 'STATE', 'AMOUNT', 'DESTINATION', 'CREATED'], items.map((w) => [w.id, w.organizationId, w.state, w.money, w.destinationSummary, w.createdAt])));
    });
  for (const verb of ['approve', 'reject'] as const) {
    withdrawals.command(`${verb} <withdrawalId>`).description(verb === 'approve' ? 'the amount leaves (hold consumed)' : 'release the hold')
      .option('--reason <text>', 'why').action(async (id: string, f: { reason?: string }) => {
        const w = await ctx.operator().withdrawals[verb](id, f.reason);
        ctx.print(w, () => withdrawalText(w));
      });
  }

  const destinations = operator.command('destinations').description('withdrawal destinations (masked) and their registration in the market');
  withListOptions(destinations.command('list').description('newest first').option('--org <organizationId>', 'one organization'))
    .action(async (f: { org?: string; page?: number; limit?: number }) => {
      const p = await ctx.operator().destinations.list({ ...(f.org ? { organizationId: f.org } : {}), ...(f.page ? { page: f.page } : {}), ...(f.limit ? { limit: f.limit } : {}) });
      ctx.print(p.items, () => table(['DESTINATION', 'ORGANIZATION', 'LABEL', 'ASSET', 'SUMMARY', 'HOLDER', 'COOLDOWN UNTIL', 'IN MARKET', 'USABLE'],
        p.items.map((d) => [d.id, d.organizationId, d.label, d.assetSymbol, d.summary, d.holderName, d.cooldownUntil, d.registeredInMarketAt, d.usable ? 'yes' : 'no'])));
    });
  destinations.command('register <destinationId>').description('record that the destination is registered in the market')
    .action(async (id: string) => {
      const d = await ctx.operator().destinations.registerInMarket(id);
      ctx.print(d, () => kv([['destination', d.id], ['registered in market', d.registeredInMarketAt], ['cooldown until', d.cooldownUntil], ['usable', d.usable ? 'yes' : 'no']]));
    });
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
