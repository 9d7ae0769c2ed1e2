import type { Exchange } from 'ccxt';
import type { OrderBook } from '../../domain/market/book-pricing.ts';
import { add, readDecimal, rat } from '../../domain/market/decimal-text.ts';
import type { Rational } from '../../domain/market/rational.ts';
import { pow10 } from '../../domain/money.ts';
import type { VenueDeposit } from '../../usecases/ports.ts';
import {
  call,
  type ExchangeAdapter,
  type Raw,
  type VenueCommission,
  type VenueMarket,
  type VenueOrderReport,
  type VenueWithdrawalReport,
  type WithdrawNetwork,
} from './adapter.ts';

/**
 * Binance spot as CCXT reaches it, read from the raw JSON of CCXT's implicit API methods: every price,
 * quantity and fee is decimal text there, read exactly (CCXT's unified structures are floats and are
 * never used for money). One of the exchange modules behind adapter.ts.
 */

const filter = (filters: Raw[], type: string): Raw | undefined => filters.find((f) => f['filterType'] === type);

/** GET /api/v3/exchangeInfo → the spot markets by CCXT's unified symbol ("BTC/USDT"). */
async function loadMarkets(ex: Exchange): Promise<Map<string, VenueMarket>> {
  const raw = (await call(ex, 'publicGetExchangeInfo', {})) as { symbols?: Raw[] };
  const out = new Map<string, VenueMarket>();
  for (const s of raw.symbols ?? []) {
    if (s['status'] !== 'TRADING' || s['isSpotTradingAllowed'] === false) continue;
    const filters = (s['filters'] ?? []) as Raw[];
    const lot = filter(filters, 'LOT_SIZE');
    const notional = filter(filters, 'NOTIONAL') ?? filter(filters, 'MIN_NOTIONAL');
    const price = filter(filters, 'PRICE_FILTER');
    const quotePrecision = Number(s['quoteAssetPrecision'] ?? s['quotePrecision'] ?? 8);
    const base = String(s['baseAsset']);
    const quote = String(s['quoteAsset']);
    out.set(`${base}/${quote}`, {
      id: String(s['symbol']),
      symbol: `${base}/${quote}`,
      base,
      quote,
      rules: {
        baseStep: readDecimal(lot?.['stepSize'] ?? '0', 'step size'),
        minBaseQty: readDecimal(lot?.['minQty'] ?? '0', 'minimum quantity'),
        quoteStep: rat(1n, pow10(Number.isInteger(quotePrecision) && quotePrecision >= 0 && quotePrecision <= 36 ? quotePrecision : 8)),
        minNotional: readDecimal(notional?.['minNotional'] ?? '0', 'minimum notional'),
      },
      tickSize: readDecimal(price?.['tickSize'] ?? '0', 'tick size'),
    });
  }
  return out;
}

/** GET /api/v3/depth: bids and asks as [price, qty] decimal text, best first. */
async function fetchBook(ex: Exchange, m: VenueMarket, limit: number): Promise<OrderBook> {
  const raw = (await call(ex, 'publicGetDepth', { symbol: m.id, limit })) as { bids?: unknown[]; asks?: unknown[] };
  const side = (levels: unknown[] | undefined) =>
    (levels ?? [])
      .map((l) => {
        const [p, q] = l as [unknown, unknown];
        return { price: readDecimal(p, 'price'), qty: readDecimal(q, 'quantity') };
      })
      .filter((l) => l.qty.num > 0n);
  return { bids: side(raw.bids), asks: side(raw.asks) };
}

const STATE: Record<string, VenueOrderReport['state']> = {
  FILLED: 'filled',
  NEW: 'open',
  PARTIALLY_FILLED: 'open',
  PENDING_NEW: 'open',
};

function report(raw: Raw, commissions: VenueCommission[]): VenueOrderReport {
  const status = String(raw['status']);
  return {
    venueOrderId: String(raw['orderId']),
    state: STATE[status] ?? 'ended',
    status,
    executedQty: readDecimal(raw['executedQty'], 'executed quantity'),
    quoteQty: readDecimal(raw['cummulativeQuoteQty'], 'quote quantity'),
    commissions,
  };
}

/**
 * POST /api/v3/order: a MARKET order with our client order id. Selling the market's base: `quantity`;
 * buying it with the quote currency: `quoteOrderQty`. Both exact decimal text. The FULL answer carries
 * the fills and their commissions.
 */
async function submitOrder(ex: Exchange, m: VenueMarket, side: 'sell' | 'buy', amountText: string, clientOrderId: string) {
  const raw = (await call(ex, 'privatePostOrder', {
    symbol: m.id,
    side: side === 'sell' ? 'SELL' : 'BUY',
    type: 'MARKET',
    newClientOrderId: clientOrderId,
    newOrderRespType: 'FULL',
    ...(side === 'sell' ? { quantity: amountText } : { quoteOrderQty: amountText }),
  })) as Raw;
  const fills = Array.isArray(raw['fills']) ? (raw['fills'] as Raw[]) : null;
  const rep = report(raw, fills ? fills.map(commissionOf) : []);
  if (!fills && rep.state === 'filled') rep.commissions = await orderCommissions(ex, m, rep.venueOrderId);
  return rep;
}

const commissionOf = (f: Raw): VenueCommission => ({
  amount: readDecimal(f['commission'], 'commission'),
  asset: String(f['commissionAsset']),
});

/**
 * GET /api/v3/order by our client order id, and once it is filled its commissions from myTrades (a
 * lookup does not carry them). Throws CCXT's OrderNotFound on Binance's -2013.
 */
async function lookupOrder(ex: Exchange, m: VenueMarket, clientOrderId: string): Promise<VenueOrderReport> {
  const rep = report((await call(ex, 'privateGetOrder', { symbol: m.id, origClientOrderId: clientOrderId })) as Raw, []);
  if (rep.state === 'filled') rep.commissions = await orderCommissions(ex, m, rep.venueOrderId);
  return rep;
}

/** GET /api/v3/myTrades of one order: its commissions. */
async function orderCommissions(ex: Exchange, m: VenueMarket, venueOrderId: string): Promise<VenueCommission[]> {
  const raw = (await call(ex, 'privateGetMyTrades', { symbol: m.id, orderId: venueOrderId })) as Raw[];
  return raw.map(commissionOf);
}

/** GET /api/v3/account: each asset's free + locked. */
async function fetchBalances(ex: Exchange): Promise<Map<string, Rational>> {
  const raw = (await call(ex, 'privateGetAccount', {})) as { balances?: Raw[] };
  return new Map(
    (raw.balances ?? []).map((b) => [
      String(b['asset']),
      add(readDecimal(b['free'], 'free balance'), readDecimal(b['locked'], 'locked balance')),
    ]),
  );
}

/** GET /sapi/v1/capital/deposit/hisrec: the account's recent deposits; `completed` is Binance status 1 (credited there). */
async function fetchDeposits(ex: Exchange, sinceMs: number): Promise<VenueDeposit[]> {
  const raw = (await call(ex, 'sapiGetCapitalDepositHisrec', { startTime: sinceMs, limit: 1000 })) as Raw[];
  return raw.map((d) => ({
    coin: String(d['coin']),
    network: String(d['network']),
    amount: readDecimal(d['amount'], 'deposit amount'),
    txid: String(d['txId']),
    completed: Number(d['status']) === 1,
  }));
}

/** GET /sapi/v1/capital/deposit/address of a coin on a network. */
async function fetchDepositAddress(ex: Exchange, coin: string, network: string): Promise<{ address: string; tag: string }> {
  const raw = (await call(ex, 'sapiGetCapitalDepositAddress', { coin, network })) as Raw;
  return { address: String(raw['address'] ?? ''), tag: String(raw['tag'] ?? '') };
}

/** GET /sapi/v1/capital/config/getall: the coin's network, or null when the venue does not withdraw it there. */
async function fetchWithdrawNetwork(ex: Exchange, coin: string, network: string): Promise<WithdrawNetwork | null> {
  const raw = (await call(ex, 'sapiGetCapitalConfigGetall', {})) as Raw[];
  const c = raw.find((x) => x['coin'] === coin);
  const n = ((c?.['networkList'] ?? []) as Raw[]).find((x) => String(x['network']).toUpperCase() === network.toUpperCase());
  if (!n) return null;
  return { fee: readDecimal(n['withdrawFee'] ?? '0', 'withdrawal fee'), enabled: n['withdrawEnable'] !== false };
}

/** POST /sapi/v1/capital/withdraw/apply with our withdraw order id; the venue's id of the withdrawal. */
async function applyWithdrawal(
  ex: Exchange,
  w: { coin: string; network: string; address: string; memo: string | null; amountText: string; withdrawOrderId: string },
): Promise<string> {
  const raw = (await call(ex, 'sapiPostCapitalWithdrawApply', {
    coin: w.coin,
    network: w.network,
    address: w.address,
    ...(w.memo !== null ? { addressTag: w.memo } : {}),
    amount: w.amountText,
    withdrawOrderId: w.withdrawOrderId,
  })) as Raw;
  return String(raw['id'] ?? '');
}

/** GET /sapi/v1/capital/withdraw/history by our withdraw order id; null when the venue has none. */
async function withdrawalByOrderId(ex: Exchange, coin: string, withdrawOrderId: string): Promise<VenueWithdrawalReport | null> {
  const raw = (await call(ex, 'sapiGetCapitalWithdrawHistory', { coin, withdrawOrderId })) as Raw[];
  const w = raw.find((x) => x['withdrawOrderId'] === withdrawOrderId);
  if (!w) return null;
  return {
    id: String(w['id'] ?? ''),
    status: Number(w['status']),
    txid: String(w['txId'] ?? ''),
    fee: w['transactionFee'] === undefined || w['transactionFee'] === null ? null : readDecimal(w['transactionFee'], 'withdrawal fee'),
    info: String(w['info'] ?? ''),
  };
}

/**
 * Binance's client order ids are ≤ 36 characters of [A-Za-z0-9._:/-]: Cambio's order ids fit as they are.
 * A client order id is unique there only among open orders, so an order is sent again only after -2013.
 */
export const binance: ExchangeAdapter = {
  id: 'binance',
  capabilities: { deposits: true, cryptoWithdrawals: true },
  needsPassword: false,
  clientOrderId: (orderId) => orderId,
  loadMarkets,
  fetchBook,
  submitOrder,
  lookupOrder,
  fetchBalances,
  fetchDeposits,
  fetchDepositAddress,
  withdrawals: { network: fetchWithdrawNetwork, apply: applyWithdrawal, byOrderId: withdrawalByOrderId },
};
