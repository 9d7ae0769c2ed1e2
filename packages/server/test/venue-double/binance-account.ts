import { add, cmp, div, minR, mul, rat, sub, toDecimalText, ZERO } from '../../src/domain/market/decimal-text.ts';
import { readDecimal } from '../../src/domain/market/decimal-text.ts';
import type { Rational } from '../../src/domain/market/rational.ts';

/**
 * The double's market and account: one spot symbol's book, the account's balances, and market orders
 * executed against the book the way Binance does (a SELL by quantity walks the bids; a BUY by
 * quoteOrderQty walks the asks, each level's quantity truncated to the step). Decimal text in and out,
 * exact rationals inside.
 */
export interface SymbolSpec {
  symbol: string;
  base: string;
  quote: string;
  step: string;
  minQty: string;
  tick: string;
  minNotional: string;
}
export type Level = [price: string, qty: string];

export interface DoubleOrder {
  orderId: number;
  clientOrderId: string;
  symbol: string;
  side: 'BUY' | 'SELL';
  type: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: 'FILLED' | 'EXPIRED';
  fills: Array<{ price: string; qty: string; commission: string; commissionAsset: string; tradeId: number }>;
  transactTime: number;
  timestamp: number;
  recvWindow: number | null;
}

const text = (r: Rational): string => {
  const t = toDecimalText(r);
  if (t === null) throw new Error(`not a terminating decimal: ${r.num}/${r.den}`);
  return t;
};
const floorTo = (r: Rational, step: Rational): Rational => {
  const n = (r.num * step.den) / (r.den * step.num);
  return mul(rat(n), step);
};

export class DoubleAccount {
  readonly books = new Map<string, { bids: Level[]; asks: Level[] }>();
  readonly balances = new Map<string, { free: Rational; locked: Rational }>();
  /** The commission rate of every fill, charged in the asset received. */
  feeRate: Rational = readDecimal('0.001');
  /** Where the commission is charged: in the asset received (Binance, OKX), or always in the quote currency (Kraken, Coinbase). */
  feeIn: 'received' | 'quote' = 'received';
  /** When set, a commission asset other than the one received (Binance's BNB discount) at this fixed amount per fill. */
  thirdAssetFee: { asset: string; amount: string } | null = null;
  readonly orders: DoubleOrder[] = [];
  #nextId = 1000;
  #tradeId = 1;

  constructor(readonly symbols: SymbolSpec[]) {}

  spec(symbol: string): SymbolSpec | undefined {
    return this.symbols.find((s) => s.symbol === symbol);
  }

  setBalance(asset: string, free: string, locked = '0') {
    this.balances.set(asset, { free: readDecimal(free), locked: readDecimal(locked) });
  }

  #move(asset: string, delta: Rational) {
    const b = this.balances.get(asset) ?? { free: ZERO, locked: ZERO };
    this.balances.set(asset, { ...b, free: add(b.free, delta) });
  }

  /** A withdrawal leaves the account's free balance; false (nothing moves) when it is not there. */
  withdraw(asset: string, amount: string): boolean {
    const a = readDecimal(amount);
    if (cmp(this.freeOf(asset), a) < 0) return false;
    this.#move(asset, sub(ZERO, a));
    return true;
  }

  /** Money comes back to the free balance (a withdrawal that failed). */
  refund(asset: string, amount: string): void {
    this.#move(asset, readDecimal(amount));
  }

  freeOf(asset: string): Rational {
    return this.balances.get(asset)?.free ?? ZERO;
  }

  balanceRows() {
    return [...this.balances].map(([asset, b]) => ({ asset, free: text(b.free), locked: text(b.locked) }));
  }

  /**
   * Executes a MARKET order. `expireAfter`: stop after that much base quantity (an EXPIRED order with
   * part of it filled). Returns the order, or a Binance error.
   */
  execute(
    p: {
      symbol: string;
      side: 'BUY' | 'SELL';
      quantity?: string;
      quoteOrderQty?: string;
      clientOrderId: string;
      timestamp: number;
      recvWindow: number | null;
    },
    opts: { expireAfter?: string } = {},
  ): DoubleOrder | { code: number; msg: string } {
    const s = this.spec(p.symbol);
    const book = this.books.get(p.symbol);
    if (!s || !book) return { code: -1121, msg: 'Invalid symbol.' };
    if (this.orders.some((o) => o.clientOrderId === p.clientOrderId && o.status !== 'FILLED' && o.status !== 'EXPIRED')) {
      return { code: -2010, msg: 'Duplicate order sent.' };
    }
    const step = readDecimal(s.step);
    const fills: DoubleOrder['fills'] = [];
    let executed = ZERO;
    let quoteQty = ZERO;
    const cap = opts.expireAfter ? readDecimal(opts.expireAfter) : null;
    if (p.side === 'SELL') {
      const want = readDecimal(p.quantity ?? '0');
      if (cmp(this.freeOf(s.base), want) < 0) return { code: -2010, msg: 'Account has insufficient balance for requested action.' };
      let remaining = cap ? minR(want, cap) : want;
      for (const [px, q] of book.bids) {
        if (remaining.num === 0n) break;
        const take = minR(readDecimal(q), remaining);
        fills.push(this.#fill(readDecimal(px), take, mul(readDecimal(px), take), s.quote, s.quote));
        executed = add(executed, take);
        quoteQty = add(quoteQty, mul(readDecimal(px), take));
        remaining = sub(remaining, take);
      }
      this.#move(s.base, sub(ZERO, executed));
      this.#move(s.quote, quoteQty);
    } else {
      const spend = readDecimal(p.quoteOrderQty ?? '0');
      if (cmp(this.freeOf(s.quote), spend) < 0) return { code: -2010, msg: 'Account has insufficient balance for requested action.' };
      let remaining = spend;
      for (const [px, q] of book.asks) {
        const price = readDecimal(px);
        let take = minR(readDecimal(q), floorTo(div(remaining, price), step));
        if (cap) take = minR(take, sub(cap, executed));
        if (take.num === 0n) break;
        fills.push(this.#fill(price, take, take, s.base, s.quote));
        executed = add(executed, take);
        quoteQty = add(quoteQty, mul(price, take));
        remaining = sub(remaining, mul(price, take));
      }
      this.#move(s.quote, sub(ZERO, quoteQty));
      this.#move(s.base, executed);
    }
    for (const f of fills) this.#move(f.commissionAsset, sub(ZERO, readDecimal(f.commission)));
    if (executed.num === 0n) return { code: -2010, msg: 'Order would immediately match and take... no liquidity.' };
    const full = p.side === 'SELL' ? cmp(executed, readDecimal(p.quantity ?? '0')) === 0 : cap === null;
    const order: DoubleOrder = {
      orderId: this.#nextId++,
      clientOrderId: p.clientOrderId,
      symbol: p.symbol,
      side: p.side,
      type: 'MARKET',
      origQty: p.side === 'SELL' ? text(readDecimal(p.quantity ?? '0')) : '0',
      executedQty: text(executed),
      cummulativeQuoteQty: text(quoteQty),
      status: full ? 'FILLED' : 'EXPIRED',
      fills,
      transactTime: Date.now(),
      timestamp: p.timestamp,
      recvWindow: p.recvWindow,
    };
    this.orders.push(order);
    return order;
  }

  #fill(price: Rational, qty: Rational, received: Rational, receivedAsset: string, quoteAsset: string): DoubleOrder['fills'][number] {
    const third = this.thirdAssetFee;
    if (!third && this.feeIn === 'quote')
      return {
        price: text(price),
        qty: text(qty),
        tradeId: this.#tradeId++,
        commission: text(mul(mul(price, qty), this.feeRate)),
        commissionAsset: quoteAsset,
      };
    return {
      price: text(price),
      qty: text(qty),
      tradeId: this.#tradeId++,
      commission: third ? third.amount : text(mul(received, this.feeRate)),
      commissionAsset: third ? third.asset : receivedAsset,
    };
  }
}
