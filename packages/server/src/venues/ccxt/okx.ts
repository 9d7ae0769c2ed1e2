import { createHash } from 'node:crypto';
import type { Exchange } from 'ccxt';
import type { OrderBook } from '../../domain/market/book-pricing.ts';
import { add, mul, readDecimal, sub, ZERO } from '../../domain/market/decimal-text.ts';
import type { Rational } from '../../domain/market/rational.ts';
import type { VenueDeposit } from '../../usecases/ports.ts';
import {
  call,
  networkOf,
  pickNetwork,
  readOrZero,
  readSigned,
  type NetworkWords,
  type ExchangeAdapter,
  type Raw,
  type VenueCommission,
  type VenueMarket,
  type VenueOrderReport,
} from './adapter.ts';
import { ccxtModule } from './ccxt-module.ts';

/**
 * OKX spot (/api/v5) as CCXT reaches it, read from its raw JSON: `{code: "0", data: [...]}` with every
 * figure decimal text. The account signs with a key, a secret and a passphrase
 * (CAMBIO_VENUE_PASSWORD). Orders trade in the trading account (`tdMode: cash`); deposits arrive in the
 * funding account: the balances are the two added.
 */

const data = (raw: unknown): Raw[] => {
  const d = (raw as { data?: unknown }).data;
  return Array.isArray(d) ? (d as Raw[]) : [];
};

const QUOTE_STEP = readDecimal('0.00000001');

/** GET /api/v5/public/instruments?instType=SPOT: lotSz the amount step, minSz its minimum; OKX sets no minimum notional. */
async function loadMarkets(ex: Exchange): Promise<Map<string, VenueMarket>> {
  const out = new Map<string, VenueMarket>();
  for (const i of data(await call(ex, 'publicGetPublicInstruments', { instType: 'SPOT' }))) {
    if (i['state'] !== 'live') continue;
    const base = String(i['baseCcy']);
    const quote = String(i['quoteCcy']);
    out.set(`${base}/${quote}`, {
      id: String(i['instId']),
      symbol: `${base}/${quote}`,
      base,
      quote,
      rules: {
        baseStep: readDecimal(i['lotSz'], 'lot size'),
        minBaseQty: readOrZero(i['minSz'], 'minimum size'),
        // OKX states no step for an amount in the quote currency (a buy's sz): its 8 decimals.
        quoteStep: QUOTE_STEP,
        minNotional: ZERO,
      },
      tickSize: readDecimal(i['tickSz'], 'tick size'),
    });
  }
  return out;
}

/** GET /api/v5/market/books: levels [price, size, 0, orders] as decimal text, best first (at most 400). */
async function fetchBook(ex: Exchange, m: VenueMarket, depth: number): Promise<OrderBook> {
  const [book] = data(await call(ex, 'publicGetMarketBooks', { instId: m.id, sz: Math.min(depth, 400) }));
  const side = (levels: unknown) =>
    (Array.isArray(levels) ? levels : [])
      .map((l) => {
        const [p, q] = l as [unknown, unknown];
        return { price: readDecimal(p, 'price'), qty: readDecimal(q, 'size') };
      })
      .filter((l) => l.qty.num > 0n);
  return { bids: side(book?.['bids']), asks: side(book?.['asks']) };
}

/**
 * OKX's clOrdId is 1 to 32 letters and digits: our order id without its underscore when that fits
 * (ord_… → ord…), else "c" and 31 hex digits of its SHA-256, the same every time.
 */
function clientOrderId(orderId: string): string {
  const plain = orderId.replace(/_/g, '');
  if (/^[A-Za-z0-9]{1,32}$/.test(plain)) return plain;
  return `c${createHash('sha256').update(orderId).digest('hex').slice(0, 31)}`;
}

/** GET /api/v5/trade/fills of one order: the quote traded (Σ price × size) and the fees (OKX writes a fee charged as negative). */
async function fills(ex: Exchange, m: VenueMarket, ordId: string): Promise<{ quote: Rational; fees: VenueCommission[] }> {
  let quote = ZERO;
  const fees: VenueCommission[] = [];
  for (const f of data(await call(ex, 'privateGetTradeFills', { instType: 'SPOT', instId: m.id, ordId }))) {
    quote = add(quote, mul(readDecimal(f['fillPx'], 'fill price'), readDecimal(f['fillSz'], 'fill size')));
    const fee = sub(ZERO, readSigned(f['fee'] ?? '0', 'fee'));
    if (fee.num !== 0n) fees.push({ amount: fee, asset: String(f['feeCcy']) });
  }
  return { quote, fees };
}

/**
 * GET /api/v5/trade/order by our clOrdId. `filled` is all of it; `canceled` (a market order the book could
 * not fill) ended short; OKX's 51603 "Order does not exist" is CCXT's OrderNotFound. A filled order's
 * quote amount and fees are read from its fills.
 */
async function lookupOrder(ex: Exchange, m: VenueMarket, cid: string): Promise<VenueOrderReport> {
  const [o] = data(await call(ex, 'privateGetTradeOrder', { instId: m.id, clOrdId: cid }));
  if (!o) throw new (ccxtModule().OrderNotFound)(`okx ${JSON.stringify({ code: '51603', msg: 'Order does not exist' })}`);
  const status = String(o['state']);
  const state = status === 'filled' ? 'filled' : status === 'live' || status === 'partially_filled' ? 'open' : 'ended';
  const executedQty = readOrZero(o['accFillSz'], 'filled size');
  const traded = executedQty.num > 0n ? await fills(ex, m, String(o['ordId'])) : { quote: ZERO, fees: [] };
  return { venueOrderId: String(o['ordId']), state, status, executedQty, quoteQty: traded.quote, commissions: traded.fees };
}

/**
 * POST /api/v5/trade/order: a market order (`tdMode: cash`) with our clOrdId. Selling, `sz` is the base
 * (`tgtCcy: base_ccy`); buying, the quote spent (`tgtCcy: quote_ccy`). The answer carries only the ids:
 * the figures are read by a lookup.
 */
async function submitOrder(ex: Exchange, m: VenueMarket, side: 'sell' | 'buy', amountText: string, cid: string) {
  await call(ex, 'privatePostTradeOrder', {
    instId: m.id,
    tdMode: 'cash',
    side,
    ordType: 'market',
    sz: amountText,
    tgtCcy: side === 'sell' ? 'base_ccy' : 'quote_ccy',
    clOrdId: cid,
  });
  return lookupOrder(ex, m, cid);
}

/** GET /api/v5/account/balance (trading: cashBal) plus GET /api/v5/asset/balances (funding: bal). */
async function fetchBalances(ex: Exchange): Promise<Map<string, Rational>> {
  const out = new Map<string, Rational>();
  const plus = (ccy: unknown, amount: Rational) => out.set(String(ccy), add(out.get(String(ccy)) ?? ZERO, amount));
  for (const acc of data(await call(ex, 'privateGetAccountBalance', {})))
    for (const d of (acc['details'] ?? []) as Raw[]) plus(d['ccy'], readOrZero(d['cashBal'], 'cash balance'));
  for (const b of data(await call(ex, 'privateGetAssetBalances', {}))) plus(b['ccy'], readOrZero(b['bal'], 'funding balance'));
  return out;
}

/** OKX names a chain "<coin>-<network>" (USDT-TRC20, BTC-Bitcoin): the network part. */
const NETWORKS: NetworkWords = [
  ['LIGHTNING', ['LIGHTNING']],
  ['BTC', ['BITCOIN']],
  ['ETH', ['ERC20', 'ETHEREUM']],
  ['TRX', ['TRC20', 'TRON']],
  ['SOL', ['SOLANA']],
];
const chainNetwork = (chain: string) => chain.slice(chain.indexOf('-') + 1);

/** GET /api/v5/asset/deposit-address of a coin: the address on the chain naming the network. */
async function fetchDepositAddress(ex: Exchange, coin: string, network: string): Promise<{ address: string; tag: string }> {
  const rows = data(await call(ex, 'privateGetAssetDepositAddress', { ccy: coin }));
  const chain = pickNetwork(
    rows.map((a) => chainNetwork(String(a['chain'] ?? ''))),
    network,
    NETWORKS,
  );
  const found = rows.find((a) => chain !== undefined && chainNetwork(String(a['chain'] ?? '')) === chain);
  if (!found)
    throw new (ccxtModule().BadRequest)(`okx ${JSON.stringify({ code: '58xxx', msg: `no ${coin} deposit address on ${network}` })}`);
  return { address: String(found['addr'] ?? ''), tag: String(found['tag'] ?? found['memo'] ?? '') };
}

/** GET /api/v5/asset/deposit-history: state 2 is credited. */
async function fetchDeposits(ex: Exchange, sinceMs: number): Promise<VenueDeposit[]> {
  return data(await call(ex, 'privateGetAssetDepositHistory', { before: String(sinceMs), limit: '100' })).map((d) => ({
    coin: String(d['ccy']),
    network: networkOf(chainNetwork(String(d['chain'] ?? '')), NETWORKS),
    amount: readDecimal(d['amt'], 'deposit amount'),
    txid: String(d['txId'] ?? ''),
    completed: String(d['state']) === '2',
  }));
}

/** OKX. Crypto withdrawals go to addresses on OKX's allow-list; not sent by Cambio yet (the desk records them). */
export const okx: ExchangeAdapter = {
  id: 'okx',
  capabilities: { deposits: true, cryptoWithdrawals: false },
  needsPassword: true,
  clientOrderId,
  loadMarkets,
  fetchBook,
  submitOrder,
  lookupOrder,
  fetchBalances,
  fetchDeposits,
  fetchDepositAddress,
};
