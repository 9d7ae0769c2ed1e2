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
  type ExchangeAdapter,
  type NetworkWords,
  type Raw,
  type VenueMarket,
  type VenueOrderReport,
} from './adapter.ts';
import { ccxtModule } from './ccxt-module.ts';

/**
 * Coinbase Advanced Trade (/api/v3/brokerage) as CCXT reaches it, read from its raw JSON: every figure is
 * decimal text there. Deposit addresses and history are the Coinbase account's (/v2/accounts/:id), the
 * same accounts Advanced Trade lists by uuid.
 */

const list = (raw: unknown, key: string): Raw[] => {
  const d = (raw as Raw)[key];
  return Array.isArray(d) ? (d as Raw[]) : [];
};

/** GET /api/v3/brokerage/market/products (spot): base_increment the amount step, quote_min_size the minimum notional. */
async function loadMarkets(ex: Exchange): Promise<Map<string, VenueMarket>> {
  const out = new Map<string, VenueMarket>();
  for (const p of list(await call(ex, 'v3PublicGetBrokerageMarketProducts', { product_type: 'SPOT' }), 'products')) {
    if (p['product_type'] !== 'SPOT' || p['status'] !== 'online' || p['trading_disabled'] === true || p['is_disabled'] === true) continue;
    const base = String(p['base_currency_id']);
    const quote = String(p['quote_currency_id']);
    out.set(`${base}/${quote}`, {
      id: String(p['product_id']),
      symbol: `${base}/${quote}`,
      base,
      quote,
      rules: {
        baseStep: readDecimal(p['base_increment'], 'base increment'),
        minBaseQty: readOrZero(p['base_min_size'], 'base minimum size'),
        quoteStep: readDecimal(p['quote_increment'], 'quote increment'),
        minNotional: readOrZero(p['quote_min_size'], 'quote minimum size'),
      },
      tickSize: readDecimal(p['price_increment'], 'price increment'),
    });
  }
  return out;
}

/** GET /api/v3/brokerage/market/product_book: levels {price, size} as decimal text, best first. */
async function fetchBook(ex: Exchange, m: VenueMarket, depth: number): Promise<OrderBook> {
  const book = ((await call(ex, 'v3PublicGetBrokerageMarketProductBook', { product_id: m.id, limit: depth })) as Raw)['pricebook'] as Raw;
  const side = (levels: unknown) =>
    (Array.isArray(levels) ? (levels as Raw[]) : [])
      .map((l) => ({ price: readDecimal(l['price'], 'price'), qty: readDecimal(l['size'], 'size') }))
      .filter((l) => l.qty.num > 0n);
  return { bids: side(book?.['bids']), asks: side(book?.['asks']) };
}

/**
 * An order as Coinbase describes it: `filled_size` the base traded, `filled_value` the quote traded before
 * fees, `total_fees` charged in the quote currency. Selling, the fees come off what was received; buying
 * with `quote_size`, they are part of the quote amount spent (nothing charged on top).
 */
function report(o: Raw, m: VenueMarket): VenueOrderReport {
  const status = String(o['status']);
  const fees = readOrZero(o['total_fees'], 'total fees');
  const value = readOrZero(o['filled_value'], 'filled value');
  const sell = o['side'] === 'SELL';
  return {
    venueOrderId: String(o['order_id']),
    state: status === 'FILLED' ? 'filled' : ['PENDING', 'OPEN', 'QUEUED', 'UNKNOWN_ORDER_STATUS'].includes(status) ? 'open' : 'ended',
    status,
    executedQty: readOrZero(o['filled_size'], 'filled size'),
    quoteQty: sell ? value : add(value, fees),
    commissions: sell && fees.num !== 0n ? [{ amount: fees, asset: m.quote }] : [],
  };
}

/**
 * POST /api/v3/brokerage/orders: `market_market_ioc` with our client_order_id (`base_size` selling,
 * `quote_size` buying). Coinbase answers a refusal with `success: false` (CCXT maps the insufficient
 * funds previews; any other such answer is a refusal too: no order was made). The figures are read from
 * GET /api/v3/brokerage/orders/historical/:order_id.
 */
async function submitOrder(ex: Exchange, m: VenueMarket, side: 'sell' | 'buy', amountText: string, cid: string) {
  let raw: Raw;
  try {
    raw = (await call(ex, 'v3PrivatePostBrokerageOrders', {
      client_order_id: cid,
      product_id: m.id,
      side: side === 'sell' ? 'SELL' : 'BUY',
      order_configuration: { market_market_ioc: side === 'sell' ? { base_size: amountText } : { quote_size: amountText } },
    })) as Raw;
  } catch (err) {
    const ccxt = ccxtModule();
    if (err instanceof ccxt.ExchangeError && !(err instanceof ccxt.OperationRejected) && /"success":\s*false/.test(err.message))
      throw new ccxt.InvalidOrder(err.message);
    throw err;
  }
  const id = String((raw['success_response'] as Raw | undefined)?.['order_id'] ?? raw['order_id'] ?? '');
  const o = ((await call(ex, 'v3PrivateGetBrokerageOrdersHistoricalOrderId', { order_id: id })) as Raw)['order'] as Raw;
  return report(o, m);
}

/** How many pages of the product's recent orders a lookup reads. */
const LOOKUP_PAGES = 5;

/**
 * The order with our client_order_id among the product's recent orders (GET
 * /api/v3/brokerage/orders/historical/batch, newest first). Not among them → it does not exist (CCXT's
 * OrderNotFound). Coinbase also answers a second order with a used client_order_id with the first one.
 */
async function lookupOrder(ex: Exchange, m: VenueMarket, cid: string): Promise<VenueOrderReport> {
  let cursor: string | undefined;
  for (let page = 0; page < LOOKUP_PAGES; page++) {
    const raw = (await call(ex, 'v3PrivateGetBrokerageOrdersHistoricalBatch', {
      product_ids: [m.id],
      limit: 100,
      ...(cursor ? { cursor } : {}),
    })) as Raw;
    const o = list(raw, 'orders').find((x) => x['client_order_id'] === cid);
    if (o) return report(o, m);
    if (raw['has_next'] !== true || !raw['cursor']) break;
    cursor = String(raw['cursor']);
  }
  throw new (ccxtModule().OrderNotFound)(
    `coinbase ${JSON.stringify({ error: 'NOT_FOUND', message: `no order with client_order_id ${cid}` })}`,
  );
}

/** GET /api/v3/brokerage/accounts, every page: uuid and currency of each account, available + hold. */
async function accounts(ex: Exchange): Promise<Raw[]> {
  const out: Raw[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const raw = (await call(ex, 'v3PrivateGetBrokerageAccounts', { limit: 250, ...(cursor ? { cursor } : {}) })) as Raw;
    out.push(...list(raw, 'accounts'));
    if (raw['has_next'] !== true || !raw['cursor']) break;
    cursor = String(raw['cursor']);
  }
  return out;
}

async function fetchBalances(ex: Exchange): Promise<Map<string, Rational>> {
  const out = new Map<string, Rational>();
  for (const a of await accounts(ex)) {
    const value = (x: unknown, what: string) => readOrZero((x as Raw | undefined)?.['value'], what);
    const code = String(a['currency']);
    out.set(code, add(out.get(code) ?? ZERO, add(value(a['available_balance'], 'available balance'), value(a['hold'], 'hold'))));
  }
  return out;
}

const accountOf = async (ex: Exchange, coin: string): Promise<string | null> => {
  const a = (await accounts(ex)).find((x) => x['currency'] === coin);
  return a ? String(a['uuid']) : null;
};

/** Networks as Coinbase names them (bitcoin, ethereum, solana…). */
const NETWORKS: NetworkWords = [
  ['BTC', ['BITCOIN']],
  ['ETH', ['ETHEREUM']],
  ['SOL', ['SOLANA']],
  ['MATIC', ['POLYGON']],
  ['BASE', ['BASE']],
];

/** GET /v2/accounts/:account_id/addresses: the account's address on the network. */
async function fetchDepositAddress(ex: Exchange, coin: string, network: string): Promise<{ address: string; tag: string }> {
  const account = await accountOf(ex, coin);
  const none = () =>
    new (ccxtModule().BadRequest)(
      `coinbase ${JSON.stringify({ error: 'not_found', message: `no ${coin} deposit address on ${network}` })}`,
    );
  if (!account) throw none();
  const rows = list(await call(ex, 'v2PrivateGetAccountsAccountIdAddresses', { account_id: account }), 'data');
  const name = pickNetwork(
    rows.map((x) => String(x['network'] ?? '')),
    network,
    NETWORKS,
  );
  const a = rows.find((x) => name !== undefined && String(x['network'] ?? '') === name);
  if (!a) throw none();
  return { address: String(a['address'] ?? ''), tag: String(a['destination_tag'] ?? '') };
}

/**
 * GET /v2/accounts/:account_id/transactions of every account: crypto received (type `send`, a positive
 * amount, an on-chain hash); `completed` is credited.
 */
async function fetchDeposits(ex: Exchange, sinceMs: number): Promise<VenueDeposit[]> {
  const out: VenueDeposit[] = [];
  for (const a of await accounts(ex)) {
    const txs = list(await call(ex, 'v2PrivateGetAccountsAccountIdTransactions', { account_id: String(a['uuid']), limit: 100 }), 'data');
    for (const t of txs) {
      const amount = t['amount'] as Raw | undefined;
      const chain = t['network'] as Raw | undefined;
      const text = String(amount?.['amount'] ?? '');
      if (t['type'] !== 'send' || text.startsWith('-') || !chain?.['hash']) continue;
      if (Date.parse(String(t['created_at'] ?? '')) < sinceMs) continue;
      out.push({
        coin: String(amount?.['currency'] ?? a['currency']),
        network: networkOf(String(chain['network_name'] ?? ''), NETWORKS),
        amount: readDecimal(text, 'deposit amount'),
        txid: String(chain['hash']),
        completed: t['status'] === 'completed',
      });
    }
  }
  return out;
}

/**
 * Coinbase Advanced Trade. Client order ids are free text: the order id as it is. Crypto withdrawals are
 * not sent by Cambio there yet (the desk records them).
 */
export const coinbase: ExchangeAdapter = {
  id: 'coinbase',
  capabilities: { deposits: true, cryptoWithdrawals: false },
  needsPassword: false,
  clientOrderId: (orderId) => orderId,
  loadMarkets,
  fetchBook,
  submitOrder,
  lookupOrder,
  fetchBalances,
  fetchDeposits,
  fetchDepositAddress,
};
