import type { Reconciliation, ReconciliationRun } from '@cambio/sdk';
import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import type { Ctx } from '../context.ts';
import { kv, table } from '../output.ts';
import { operatorAmount } from './operator-helpers.ts';

const signed = (v: bigint) => v.toString();
const runText = (r: Omit<ReconciliationRun, 'reconciled'>) => `${kv([['run', r.id], ['matched', r.matched ? 'yes' : 'NO'], ['source', r.source], ['at', r.createdAt]])}\n\n${
  table(['ASSET', 'BOOKS (minor)', 'MARKET (minor)', 'DIFFERENCE', 'MATCHED'], r.figures.map((f) => [f.assetSymbol, signed(f.booksMinor), signed(f.marketMinor), signed(f.differenceMinor), f.matched ? 'yes' : 'NO']))}`;
const stateText = (s: Reconciliation) => `${kv([['reconciled', s.reconciled ? 'yes' : 'NO: money-moving client calls answer 409 ledger.ledger_not_reconciled'], ['since', s.changedAt]])}${s.lastRun ? `\n\nlast run:\n${runText(s.lastRun)}` : ''}`;

/** `cambio operator reconciliation …`: compare the books with the market; a mismatch stops client operations. */
export function register(operator: Command, ctx: Ctx): void {
  const rec = operator.command('reconciliation').description('books against the market');
  rec.command('status').action(async () => {
    const s = await ctx.operator().reconciliation.get();
    ctx.print(s, () => stateText(s));
  });
  rec.command('run').description('compare now; without --market, with the simulated venue\'s balances')
    .option('--market <asset=amount...>', 'the market\'s balance of an asset, as a decimal (repeatable)')
    .action(async (f: { market?: string[] }) => {
      const op = ctx.operator();
      const marketBalances = [];
      for (const item of f.market ?? []) {
        const m = /^([A-Za-z0-9]{2,12})=([0-9.]+)$/.exec(item);
        if (!m) throw new UsageError(`--market ${item}: expected ASSET=AMOUNT, e.g. BTC=1.5`);
        const assetSymbol = m[1]!.toUpperCase();
        marketBalances.push({ assetSymbol, amountMinor: await operatorAmount(op, assetSymbol, m[2]!) });
      }
      const r = await op.reconciliation.run(f.market ? { marketBalances } : {});
      ctx.print(r, () => `${runText(r)}\n\nreconciled now: ${r.reconciled ? 'yes' : 'NO'}`);
    });
  rec.command('resolve').description('a person reviewed the mismatch: client operations resume').option('--note <text>', 'what was found')
    .action(async (f: { note?: string }) => {
      const s = await ctx.operator().reconciliation.resolve(f.note ? { note: f.note } : {});
      ctx.print(s, () => stateText(s));
    });
}
