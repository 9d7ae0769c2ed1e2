import type {
  ClientStatus,
  OperatorDeposit,
  OperatorOrder,
  OperatorWithdrawal,
  Organization,
  Pair,
  Reconciliation,
  ReconciliationRun,
} from '@cambio/sdk';
import { cell, kv, table } from '../output.ts';

/** How the operator commands show a record to a person (with --json the record itself is printed). */

export const orgText = (o: Organization) =>
  kv([
    ['organization', o.id],
    ['name', o.name],
    ['status', o.status],
    ['can operate', o.canOperate ? 'yes' : 'no'],
    ['limits', o.limits === null ? 'not loaded' : cell(o.limits)],
    ['updated at', o.updatedAt],
  ]);

/** `--status` as given; the server refuses anything but draft, active or suspended. */
export const statusArg = (v: string) => v as ClientStatus;

export const orderText = (o: OperatorOrder) =>
  kv([
    ['order', o.id],
    ['organization', o.organizationId],
    ['state', o.state],
    ['deliver', o.base],
    ['receive', o.quote],
    ['venue paid', o.proceedsQuoteMinor === null ? null : { ...o.quote, amountMinor: o.proceedsQuoteMinor }],
    ['reason', o.reason],
    ['updated at', o.updatedAt],
  ]);

export const withdrawalText = (w: OperatorWithdrawal) =>
  kv([
    ['withdrawal', w.id],
    ['organization', w.organizationId],
    ['state', w.state],
    ['amount', w.money],
    ['destination', `${w.destinationId} (${w.destinationSummary})`],
    ['reason', w.reason],
    ['updated at', w.updatedAt],
  ]);

const m = (symbol: string, decimals: number, amountMinor: bigint) => ({ assetSymbol: symbol, assetDecimals: decimals, amountMinor });
export const pairRate = (p: Pair) => m(p.quoteSymbol, p.quoteDecimals, p.rateQuoteMinor);
export const pairText = (p: Pair) =>
  kv([
    ['pair', `${p.baseSymbol}/${p.quoteSymbol}`],
    ['mid rate', p.midRate],
    ['spread bps', p.spreadBps],
    ['fee bps', p.feeBps],
    ['fixed fee', m(p.quoteSymbol, p.quoteDecimals, p.fixedFeeQuoteMinor)],
    ['min', m(p.baseSymbol, p.baseDecimals, p.minBaseMinor)],
    ['max', m(p.baseSymbol, p.baseDecimals, p.maxBaseMinor)],
    ['offered rate', pairRate(p)],
  ]);

export const depositText = (d: OperatorDeposit) =>
  kv([
    ['deposit', d.id],
    ['state', d.state],
    ['amount', d.money],
    ['network', d.network],
    ['txid', d.txid],
    ['organization', d.organizationId ?? 'unattributed (waits for attribution)'],
    ['declaration', d.declarationId],
  ]);

const signed = (v: bigint) => v.toString();
export const runText = (r: Omit<ReconciliationRun, 'reconciled'>) =>
  `${kv([
    ['run', r.id],
    ['matched', r.matched ? 'yes' : 'NO'],
    ['source', r.source],
    ['at', r.createdAt],
  ])}\n\n${table(
    ['ASSET', 'BOOKS (minor)', 'MARKET (minor)', 'DIFFERENCE', 'MATCHED'],
    r.figures.map((f) => [f.assetSymbol, signed(f.booksMinor), signed(f.marketMinor), signed(f.differenceMinor), f.matched ? 'yes' : 'NO']),
  )}`;
export const stateText = (s: Reconciliation) =>
  `${kv([
    ['reconciled', s.reconciled ? 'yes' : 'NO: money-moving client calls answer 409 ledger.ledger_not_reconciled'],
    ['since', s.changedAt],
  ])}${s.lastRun ? `\n\nlast run:\n${runText(s.lastRun)}` : ''}`;

/** Every item of an async iterator (`--all`). */
export async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
