import { createHash } from 'node:crypto';
import { DoubleAccount, type DoubleOrder, type Level, type SymbolSpec } from './binance-account.ts';
import type { DoubleRequest } from './double-server.ts';

/**
 * What the doubles of Kraken, OKX and Coinbase share beside their server (double-server.ts): one spot
 * market's book and account (binance-account.ts executes market orders on it), deposits and deposit
 * addresses, and the controls a test uses on any exchange alike. Each double answers in its exchange's
 * own protocol.
 */
export interface DoubleDeposit {
  coin: string;
  /** The unified network (BTC, TRC20…): each double writes it in its exchange's own words. */
  network: string;
  amount: string;
  txId: string;
  completed: boolean;
  at: number;
}

export interface ExchangeDouble {
  exchange: 'binance' | 'kraken' | 'okx' | 'coinbase';
  origin: string;
  /** The exchange's id of the BTC/USDT market. */
  marketId: string;
  /** The path a market order is POSTed to (to fail it before the exchange records anything). */
  orderPath: string;
  /** CAMBIO_VENUE and its credentials for this double. */
  env: Record<string, string>;
  account: DoubleAccount;
  orders: DoubleOrder[];
  requests: Array<{ method: string; path: string }>;
  unknown: string[];
  setBook(book: { bids: Level[]; asks: Level[] }): void;
  setBalance(asset: string, free: string, locked?: string): void;
  /** The next order is refused for insufficient funds, in the exchange's own words. */
  refuseNextOrder(): void;
  /** The next order is recorded and executed, then the connection is cut before any answer. */
  dropAfterNextOrder(): void;
  /** How many orders the double recorded under this client order id (as sent). */
  ordersWithClientId(clientOrderId: string): DoubleOrder[];
  setDepositAddress(coin: string, network: string, address: string): void;
  addDeposit(d: Omit<DoubleDeposit, 'at'>): void;
  completeDeposit(txId: string): void;
  fail(path: string, fault: number | 'drop', times?: number, method?: 'GET' | 'POST'): void;
  clearFaults(): void;
  close(): Promise<void>;
}

export const DOUBLE_KEYS = {
  kraken: { key: 'kraken-double-key-31f', secret: Buffer.from('kraken-double-secret-0c9d').toString('base64') },
  okx: { key: 'okx-double-key-77a', secret: 'okx-double-secret-5e2', password: 'okx-double-passphrase-19' },
  coinbase: { key: 'coinbase-double-key-4b8', secret: 'coinbase-double-secret-d07' },
} as const;

export const btcUsdt = (symbol: string): SymbolSpec => ({
  symbol,
  base: 'BTC',
  quote: 'USDT',
  step: '0.00000001',
  minQty: '0.00001',
  tick: '0.1',
  minNotional: '1',
});

/** The state and controls every exchange double has; the double adds its routes. */
export function doubleState(spec: SymbolSpec) {
  const account = new DoubleAccount([spec]);
  const deposits: DoubleDeposit[] = [];
  const addresses = new Map<string, string>();
  const flags = { refuseNext: false, dropNext: false };
  return {
    account,
    deposits,
    addresses,
    flags,
    controls: {
      account,
      get orders() {
        return account.orders;
      },
      setBook(book: { bids: Level[]; asks: Level[] }) {
        account.books.set(spec.symbol, book);
      },
      setBalance(asset: string, free: string, locked = '0') {
        account.setBalance(asset, free, locked);
      },
      refuseNextOrder() {
        flags.refuseNext = true;
      },
      dropAfterNextOrder() {
        flags.dropNext = true;
      },
      ordersWithClientId(clientOrderId: string) {
        return account.orders.filter((o) => o.clientOrderId === clientOrderId);
      },
      setDepositAddress(coin: string, network: string, address: string) {
        addresses.set(`${coin}:${network}`, address);
      },
      addDeposit(d: Omit<DoubleDeposit, 'at'>) {
        deposits.push({ ...d, at: Date.now() });
      },
      completeDeposit(txId: string) {
        for (const d of deposits) if (d.txId === txId) d.completed = true;
      },
    },
  };
}

/** The header a signed request carries its key in, or the form/JSON field. */
export const keyOf = (r: DoubleRequest, header: string): string => String(r.headers[header.toLowerCase()] ?? '');

/** A stable id of the double's own for an order (OKX's numbers, Kraken's OXXXXX-XXXXX-XXXXXX, Coinbase's uuids). */
export const hexOf = (n: number | string, len = 32): string => createHash('sha256').update(String(n)).digest('hex').slice(0, len);

/** `executedQty` of an order and the commissions of its fills, added. */
export function orderFees(o: DoubleOrder): string {
  let num = 0n;
  let scale = 0;
  for (const f of o.fills) {
    const [w, fr = ''] = f.commission.split('.');
    const s = fr.length;
    const v = BigInt(w! + fr);
    if (s > scale) {
      num *= 10n ** BigInt(s - scale);
      scale = s;
    }
    num += v * 10n ** BigInt(scale - s);
  }
  const t = num.toString().padStart(scale + 1, '0');
  return scale === 0 ? t : `${t.slice(0, -scale)}.${t.slice(-scale)}`;
}
