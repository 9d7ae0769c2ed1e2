import { createHash } from 'node:crypto';
import type { Exchange } from 'ccxt';
import type { OrderBook } from '../../domain/market/book-pricing.ts';
import { add, readDecimal, ZERO } from '../../domain/market/decimal-text.ts';
import type { Rational } from '../../domain/market/rational.ts';
import type { VenueDeposit } from '../../usecases/ports.ts';
import {
  call,
  networkOf,
  pickNetwork,
  readOrZero,
  stepOfDecimals,
  type ExchangeAdapter,
  type NetworkWords,
  type Raw,
  type VenueMarket,
  type VenueOrderReport,
} from './adapter.ts';
import { ccxtModule } from './ccxt-module.ts';

/**
 * Kraken spot as CCXT reaches it (/0/public/*, /0/private/*), read from its raw JSON: every figure is
 * decimal text there. Kraken names assets its own way (XXBT, ZUSD): they are read back to CCXT's
 * unified codes (BTC, USD) through /0/public/Assets and CCXT's common currency names.
 */

type KrakenAnswer<T> = { error?: unknown[]; result?: T };
const result = <T>(raw: unknown): T => ((raw as KrakenAnswer<T>).result ?? {}) as T;

/** A Kraken asset name (XXBT, XBT, ZUSD) → CCXT's unified code (BTC, USD). */
function unified(ex: Exchange, altname: string): string {
  return (ex as unknown as { commonCurrencyCode(c: string): string }).commonCurrencyCode(altname);
}

/** GET /0/public/Assets: Kraken's asset id → unified code (XXBT → BTC), and back. */
async function assets(ex: Exchange): Promise<{ toUnified: Map<string, string>; toKraken: Map<string, string> }> {
  const raw = result<Record<string, Raw>>(await call(ex, 'publicGetAssets', {}));
  const toUnified = new Map<string, string>();
  const toKraken = new Map<string, string>();
  for (const [id, a] of Object.entries(raw)) {
    const code = unified(ex, String(a['altname'] ?? id));
    toUnified.set(id, code);
    toUnified.set(String(a['altname'] ?? id), code);
    if (!toKraken.has(code)) toKraken.set(code, id);
  }
  return { toUnified, toKraken };
}

/** GET /0/public/AssetPairs: lot_decimals is the amount step, ordermin its minimum, costmin the minimum notional. */
async function loadMarkets(ex: Exchange): Promise<Map<string, VenueMarket>> {
  const raw = result<Record<string, Raw>>(await call(ex, 'publicGetAssetPairs', {}));
  const out = new Map<string, VenueMarket>();
  for (const [id, p] of Object.entries(raw)) {
    if (p['status'] !== undefined && p['status'] !== 'online') continue;
    const ws = String(p['wsname'] ?? '');
    if (!ws.includes('/') || id.endsWith('.d')) continue;
    const [b, q] = ws.split('/') as [string, string];
    const base = unified(ex, b);
    const quote = unified(ex, q);
    out.set(`${base}/${quote}`, {
      id,
      symbol: `${base}/${quote}`,
      base,
      quote,
      rules: {
        baseStep: stepOfDecimals(p['lot_decimals'], 'lot decimals'),
        minBaseQty: readOrZero(p['ordermin'], 'order minimum'),
        quoteStep: stepOfDecimals(p['cost_decimals'], 'cost decimals'),
        minNotional: readOrZero(p['costmin'], 'cost minimum'),
      },
      tickSize:
        p['tick_size'] !== undefined ? readDecimal(p['tick_size'], 'tick size') : stepOfDecimals(p['pair_decimals'], 'pair decimals'),
    });
  }
  return out;
}

/** GET /0/public/Depth: levels [price, volume, timestamp] as decimal text, best first. */
async function fetchBook(ex: Exchange, m: VenueMarket, depth: number): Promise<OrderBook> {
  const raw = result<Record<string, { bids?: unknown[]; asks?: unknown[] }>>(
    await call(ex, 'publicGetDepth', { pair: m.id, count: Math.min(depth, 500) }),
  );
  const book = raw[m.id] ?? Object.values(raw)[0] ?? {};
  const side = (levels: unknown[] | undefined) =>
    (levels ?? [])
      .map((l) => {
        const [p, q] = l as [unknown, unknown];
        return { price: readDecimal(p, 'price'), qty: readDecimal(q, 'volume') };
      })
      .filter((l) => l.qty.num > 0n);
  return { bids: side(book.bids), asks: side(book.asks) };
}

/**
 * Kraken's `cl_ord_id` takes a UUID (or 18 characters of free text): our order id is mapped to the UUID
 * made of the first 128 bits of its SHA-256, the same every time, so a lookup finds what was sent.
 */
function clientOrderId(orderId: string): string {
  const h = createHash('sha256').update(orderId).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * An order as Kraken describes it: `vol_exec` the base traded, `cost` the quote traded, `fee` charged in
 * the quote currency (Kraken's default for both sides). A `closed` market order is filled; `canceled`
 * or `expired` ended short.
 */
function report(txid: string, o: Raw, m: VenueMarket): VenueOrderReport {
  const status = String(o['status']);
  const fee = readOrZero(o['fee'], 'fee');
  return {
    venueOrderId: txid,
    state: status === 'closed' ? 'filled' : status === 'pending' || status === 'open' ? 'open' : 'ended',
    status,
    executedQty: readOrZero(o['vol_exec'], 'executed volume'),
    quoteQty: readOrZero(o['cost'], 'cost'),
    commissions: fee.num === 0n ? [] : [{ amount: fee, asset: m.quote }],
  };
}

/** POST /0/private/QueryOrders by Kraken's order id. */
async function queryOrder(ex: Exchange, m: VenueMarket, txid: string): Promise<VenueOrderReport> {
  const raw = result<Record<string, Raw>>(await call(ex, 'privatePostQueryOrders', { txid }));
  const o = raw[txid];
  if (!o) throw new (ccxtModule().ExchangeError)(`kraken ${JSON.stringify({ error: [`the answer carried no order ${txid}`] })}`);
  return report(txid, o, m);
}

/** How long Kraken may still execute an order request: Binance's recvWindow (venues/index.ts), the same wait after it. */
const DEADLINE_MS = 5_000;

/**
 * POST /0/private/AddOrder: a market order with our `cl_ord_id`. Selling: `volume` in base; buying:
 * `volume` in the quote currency (`oflags=viqc`). The answer carries only Kraken's order id: its figures
 * are read with QueryOrders.
 */
async function submitOrder(ex: Exchange, m: VenueMarket, side: 'sell' | 'buy', amountText: string, cid: string) {
  const raw = result<{ txid?: unknown[] }>(
    await call(ex, 'privatePostAddOrder', {
      pair: m.id,
      type: side,
      ordertype: 'market',
      volume: amountText,
      cl_ord_id: cid,
      // Kraken's matching engine refuses the request after this: a request still on its way when the
      // order is looked up and sent again cannot execute later (the window docs/market.md waits out).
      deadline: new Date(Date.now() + DEADLINE_MS).toISOString(),
      ...(side === 'buy' ? { oflags: 'viqc' } : {}),
    }),
  );
  const txid = String(raw.txid?.[0] ?? '');
  return queryOrder(ex, m, txid);
}

/**
 * The order with our `cl_ord_id`: POST /0/private/OpenOrders, then /0/private/ClosedOrders, each
 * filtered by it. Neither has it → it does not exist (CCXT's OrderNotFound).
 */
async function lookupOrder(ex: Exchange, m: VenueMarket, cid: string): Promise<VenueOrderReport> {
  const open = result<{ open?: Record<string, Raw> }>(await call(ex, 'privatePostOpenOrders', { cl_ord_id: cid })).open ?? {};
  const closed =
    Object.keys(open).length > 0
      ? {}
      : (result<{ closed?: Record<string, Raw> }>(await call(ex, 'privatePostClosedOrders', { cl_ord_id: cid })).closed ?? {});
  const found = Object.entries({ ...open, ...closed }).find(([, o]) => o['cl_ord_id'] === undefined || o['cl_ord_id'] === cid);
  if (!found) throw new (ccxtModule().OrderNotFound)(`kraken ${JSON.stringify({ error: [`no order with cl_ord_id ${cid}`] })}`);
  return report(found[0], found[1], m);
}

/** POST /0/private/Balance: each asset's total (what is held for open orders included). */
async function fetchBalances(ex: Exchange): Promise<Map<string, Rational>> {
  const names = await assets(ex);
  const raw = result<Record<string, unknown>>(await call(ex, 'privatePostBalance', {}));
  const out = new Map<string, Rational>();
  for (const [id, text] of Object.entries(raw)) {
    const code = names.toUnified.get(id) ?? unified(ex, id);
    out.set(code, add(out.get(code) ?? ZERO, readDecimal(text, 'balance')));
  }
  return out;
}

/** Networks as Kraken's deposit methods write them ("Bitcoin", "Tether USD (TRC20)"). */
const NETWORKS: NetworkWords = [
  ['LIGHTNING', ['LIGHTNING']],
  ['BTC', ['BITCOIN']],
  ['ETH', ['ERC20', 'ETHER', 'ETHEREUM']],
  ['TRX', ['TRC20', 'TRON']],
  ['SOL', ['SPL', 'SOLANA']],
];

/** The coin's deposit method on the network (DepositMethods); null when Kraken has none there. */
async function depositMethod(ex: Exchange, asset: string, network: string): Promise<string | null> {
  const raw = result<Raw[]>(await call(ex, 'privatePostDepositMethods', { asset }));
  const methods = (Array.isArray(raw) ? raw : []).map((x) => String(x['method'] ?? ''));
  return pickNetwork(methods, network, NETWORKS) ?? null;
}

/** POST /0/private/DepositAddresses with the coin's deposit method on that network. */
async function fetchDepositAddress(ex: Exchange, coin: string, network: string): Promise<{ address: string; tag: string }> {
  const asset = (await assets(ex)).toKraken.get(coin) ?? coin;
  const method = await depositMethod(ex, asset, network);
  if (!method)
    throw new (ccxtModule().BadRequest)(`kraken ${JSON.stringify({ error: [`EFunding:No funding method for ${coin} on ${network}`] })}`);
  const raw = result<Raw[]>(await call(ex, 'privatePostDepositAddresses', { asset, method }));
  const a = (Array.isArray(raw) ? raw : [])[0] ?? {};
  return { address: String(a['address'] ?? ''), tag: String(a['tag'] ?? a['memo'] ?? '') };
}

/** POST /0/private/DepositStatus: recent deposits; `Success` is credited. */
async function fetchDeposits(ex: Exchange, sinceMs: number): Promise<VenueDeposit[]> {
  const names = await assets(ex);
  const raw = result<Raw[]>(await call(ex, 'privatePostDepositStatus', { start: String(BigInt(sinceMs) / 1000n) }));
  return (Array.isArray(raw) ? raw : []).map((d) => ({
    coin: names.toUnified.get(String(d['asset'])) ?? unified(ex, String(d['asset'])),
    network: networkOf(String(d['method'] ?? ''), NETWORKS),
    amount: readDecimal(d['amount'], 'deposit amount'),
    txid: String(d['txid'] ?? ''),
    completed: d['status'] === 'Success',
  }));
}

/**
 * Kraken. Crypto withdrawals there go to addresses registered by name in Kraken's own interface (its
 * API withdraws to a withdrawal key, not to an address given in the request): not sent by Cambio.
 */
export const kraken: ExchangeAdapter = {
  id: 'kraken',
  capabilities: { deposits: true, cryptoWithdrawals: false },
  needsPassword: false,
  clientOrderId,
  loadMarkets,
  fetchBook,
  submitOrder,
  lookupOrder,
  fetchBalances,
  fetchDeposits,
  fetchDepositAddress,
};
