import type { DoubleOrder } from './binance-account.ts';
import { startDoubleServer, type DoubleAnswer, type DoubleRequest } from './double-server.ts';
import { btcUsdt, DOUBLE_KEYS, doubleState, hexOf, keyOf, orderFees, type ExchangeDouble } from './exchange-double.ts';
import { sum } from './kraken-double.ts';

/**
 * A loopback double of Coinbase Advanced Trade (/api/v3/brokerage) and the Coinbase account API
 * (/v2/accounts) as CCXT's `coinbase` class calls them: products, product book, market IOC orders with
 * client_order_id (a used one answers with the first order, as Coinbase does), orders by id and the
 * product's recent orders, accounts, deposit addresses and transactions. A refused order is `success:
 * false` with an error_response, HTTP 200. The CB-ACCESS-KEY header is checked, the signature is not.
 * Fees are charged in the quote currency.
 */
const PRODUCT = 'BTC-USDT';
const NETWORK_NAME: Record<string, string> = { BTC: 'bitcoin', ETH: 'ethereum', SOL: 'solana' };

export async function startCoinbaseDouble(): Promise<ExchangeDouble> {
  const st = doubleState(btcUsdt(PRODUCT));
  st.account.feeIn = 'quote';
  const uuid = (seed: string) => {
    const h = hexOf(seed);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const accountId = (ccy: string) => uuid(`account:${ccy}`);
  const orderId = (o: DoubleOrder) => uuid(`order:${o.orderId}`);
  const orderWire = (o: DoubleOrder) => {
    const fees = orderFees(o);
    const value = o.cummulativeQuoteQty;
    return {
      order_id: orderId(o),
      product_id: PRODUCT,
      user_id: 'double-user',
      order_configuration: { market_market_ioc: o.side === 'SELL' ? { base_size: o.origQty } : { quote_size: value } },
      side: o.side,
      client_order_id: o.clientOrderId,
      status: o.status === 'FILLED' ? 'FILLED' : 'CANCELLED',
      time_in_force: 'IMMEDIATE_OR_CANCEL',
      created_time: new Date(o.transactTime).toISOString(),
      completion_percentage: o.status === 'FILLED' ? '100' : '50',
      filled_size: o.executedQty,
      average_filled_price: '0',
      fee: '',
      number_of_fills: String(o.fills.length),
      filled_value: value,
      pending_cancel: false,
      size_in_quote: o.side === 'BUY',
      total_fees: fees,
      size_inclusive_of_fees: false,
      total_value_after_fees: o.side === 'SELL' ? value : sum(value, fees),
      trigger_status: 'INVALID_ORDER_TYPE',
      order_type: 'MARKET',
      reject_reason: 'REJECT_REASON_UNSPECIFIED',
      settled: true,
      product_type: 'SPOT',
      reject_message: '',
      cancel_message: o.status === 'FILLED' ? '' : 'Insufficient liquidity',
      order_placement_source: 'RETAIL_ADVANCED',
      outstanding_hold_amount: '0',
      is_liquidation: false,
      last_fill_time: new Date(o.transactTime).toISOString(),
    };
  };
  const refused = (error: string, message: string, preview: string, conf: unknown): DoubleAnswer => ({
    status: 200,
    body: {
      success: false,
      failure_reason: 'UNKNOWN_FAILURE_REASON',
      order_id: '',
      error_response: {
        error,
        message,
        error_details: '',
        preview_failure_reason: preview,
        new_order_failure_reason: 'UNKNOWN_FAILURE_REASON',
      },
      order_configuration: conf,
    },
  });
  const currencies = () => [...new Set(['BTC', 'USDT', ...st.account.balances.keys()])];

  const route = (r: DoubleRequest): DoubleAnswer | null => {
    const key = `${r.method} ${r.path}`;
    const q = r.query;
    if (key === 'GET /v2/time')
      return { status: 200, body: { data: { iso: new Date().toISOString(), epoch: Math.floor(Date.now() / 1000) } } };
    if (key === 'GET /api/v3/brokerage/market/products') {
      const s = st.account.symbols[0]!;
      return {
        status: 200,
        body: {
          products: [
            {
              product_id: PRODUCT,
              price: '65000',
              price_percentage_change_24h: '0',
              volume_24h: '0',
              volume_percentage_change_24h: '0',
              base_increment: s.step,
              quote_increment: '0.01',
              quote_min_size: s.minNotional,
              quote_max_size: '50000000',
              base_min_size: s.minQty,
              base_max_size: '2600',
              base_name: 'Bitcoin',
              quote_name: 'Tether',
              watched: false,
              is_disabled: false,
              new: false,
              status: 'online',
              cancel_only: false,
              limit_only: false,
              post_only: false,
              trading_disabled: false,
              auction_mode: false,
              product_type: 'SPOT',
              quote_currency_id: s.quote,
              base_currency_id: s.base,
              base_display_symbol: s.base,
              quote_display_symbol: s.quote,
              price_increment: s.tick,
              display_name: PRODUCT,
              product_venue: 'CBE',
              view_only: false,
            },
          ],
          num_products: 1,
        },
      };
    }
    if (key === 'GET /api/v3/brokerage/market/product_book') {
      if (q.get('product_id') !== PRODUCT)
        return { status: 404, body: { error: 'NOT_FOUND', error_details: 'ProductID is invalid', message: 'ProductID is invalid' } };
      const book = st.account.books.get(PRODUCT) ?? { bids: [], asks: [] };
      const n = Number(q.get('limit') ?? '50');
      const level = (l: [string, string]) => ({ price: l[0], size: l[1] });
      return {
        status: 200,
        body: {
          pricebook: {
            product_id: PRODUCT,
            bids: book.bids.slice(0, n).map(level),
            asks: book.asks.slice(0, n).map(level),
            time: new Date().toISOString(),
          },
          last: '65000',
          mid_market: '65005',
          spread_bps: '1',
          spread_absolute: '10',
        },
      };
    }
    if (keyOf(r, 'CB-ACCESS-KEY') !== DOUBLE_KEYS.coinbase.key)
      return { status: 401, body: { error: 'authentication_error', error_details: 'invalid api key', message: 'invalid api key' } };
    const p = r.body;
    if (key === 'POST /api/v3/brokerage/orders') {
      const cid = String(p['client_order_id'] ?? '');
      const conf = (p['order_configuration'] ?? {}) as Record<string, Record<string, string> | undefined>;
      const prior = st.account.orders.find((o) => o.clientOrderId === cid);
      if (prior)
        return {
          status: 200,
          body: {
            success: true,
            success_response: { order_id: orderId(prior), product_id: PRODUCT, side: prior.side, client_order_id: cid },
            order_configuration: conf,
          },
        };
      if (st.flags.refuseNext) {
        st.flags.refuseNext = false;
        return refused('INSUFFICIENT_FUND', 'Insufficient balance in source account', 'PREVIEW_INSUFFICIENT_FUND', conf);
      }
      const m = conf['market_market_ioc'];
      if (p['product_id'] !== PRODUCT || !m)
        return refused('INVALID_ARGUMENT', 'Invalid order configuration', 'UNKNOWN_PREVIEW_FAILURE_REASON', conf);
      const sell = p['side'] === 'SELL';
      const o = st.account.execute({
        symbol: PRODUCT,
        side: sell ? 'SELL' : 'BUY',
        clientOrderId: cid,
        timestamp: Date.now(),
        recvWindow: null,
        ...(sell ? { quantity: m['base_size'] ?? '0' } : { quoteOrderQty: m['quote_size'] ?? '0' }),
      });
      if ('code' in o)
        return /insufficient/i.test(o.msg)
          ? refused('INSUFFICIENT_FUND', 'Insufficient balance in source account', 'PREVIEW_INSUFFICIENT_FUND', conf)
          : refused('INVALID_ARGUMENT', o.msg, 'UNKNOWN_PREVIEW_FAILURE_REASON', conf);
      if (st.flags.dropNext) {
        st.flags.dropNext = false;
        return 'drop';
      }
      return {
        status: 200,
        body: {
          success: true,
          success_response: { order_id: orderId(o), product_id: PRODUCT, side: o.side, client_order_id: cid },
          order_configuration: conf,
        },
      };
    }
    if (key === 'GET /api/v3/brokerage/orders/historical/batch') {
      const products = q.getAll('product_ids');
      const found = [...st.account.orders].reverse().filter(() => products.length === 0 || products.includes(PRODUCT));
      return { status: 200, body: { orders: found.map(orderWire), sequence: '0', has_next: false, cursor: '' } };
    }
    if (r.method === 'GET' && r.path.startsWith('/api/v3/brokerage/orders/historical/')) {
      const id = r.path.split('/').at(-1);
      const o = st.account.orders.find((x) => orderId(x) === id);
      if (!o)
        return {
          status: 404,
          body: {
            error: 'NOT_FOUND',
            error_details: 'order with this orderID was not found',
            message: 'order with this orderID was not found',
          },
        };
      return { status: 200, body: { order: orderWire(o) } };
    }
    if (key === 'GET /api/v3/brokerage/accounts') {
      const rows = st.account.balanceRows();
      return {
        status: 200,
        body: {
          accounts: currencies().map((ccy) => {
            const b = rows.find((x) => x.asset === ccy) ?? { free: '0', locked: '0' };
            return {
              uuid: accountId(ccy),
              name: `${ccy} Wallet`,
              currency: ccy,
              available_balance: { value: b.free, currency: ccy },
              default: true,
              active: true,
              created_at: '2024-01-01T00:00:00Z',
              updated_at: '2024-01-01T00:00:00Z',
              deleted_at: null,
              type: 'ACCOUNT_TYPE_CRYPTO',
              ready: true,
              hold: { value: b.locked, currency: ccy },
              retail_portfolio_id: 'double-portfolio',
            };
          }),
          has_next: false,
          cursor: '',
          size: currencies().length,
        },
      };
    }
    const v2 = /^\/v2\/accounts\/([^/]+)\/(addresses|transactions)$/.exec(r.path);
    if (r.method === 'GET' && v2) {
      const ccy = currencies().find((c) => accountId(c) === v2[1]);
      if (!ccy) return { status: 404, body: { errors: [{ id: 'not_found', message: 'Not found' }] } };
      const page = {
        pagination: { ending_before: null, starting_after: null, limit: 25, order: 'desc', previous_uri: null, next_uri: null },
      };
      if (v2[2] === 'addresses')
        return {
          status: 200,
          body: {
            ...page,
            data: [...st.addresses]
              .filter(([k]) => k.startsWith(`${ccy}:`))
              .map(([k, address]) => ({
                id: hexOf(address),
                address,
                address_info: { address },
                name: null,
                created_at: '2024-01-01T00:00:00Z',
                updated_at: '2024-01-01T00:00:00Z',
                network: NETWORK_NAME[k.split(':')[1]!] ?? k.split(':')[1]!.toLowerCase(),
                uri_scheme: 'bitcoin',
                resource: 'address',
                resource_path: `/v2/accounts/${v2[1]}/addresses/${hexOf(address)}`,
                warnings: [],
              })),
          },
        };
      return {
        status: 200,
        body: {
          ...page,
          data: st.deposits
            .filter((d) => d.coin === ccy)
            .reverse()
            .map((d) => ({
              id: hexOf(d.txId),
              type: 'send',
              status: d.completed ? 'completed' : 'pending',
              amount: { amount: d.amount, currency: d.coin },
              native_amount: { amount: '0.00', currency: 'USD' },
              description: null,
              created_at: new Date(d.at).toISOString(),
              updated_at: new Date(d.at).toISOString(),
              resource: 'transaction',
              resource_path: `/v2/accounts/${v2[1]}/transactions/${hexOf(d.txId)}`,
              network: {
                status: d.completed ? 'confirmed' : 'pending',
                hash: d.txId,
                network_name: NETWORK_NAME[d.network] ?? d.network.toLowerCase(),
              },
              from: { resource: `${NETWORK_NAME[d.network] ?? 'crypto'}_network` },
            })),
        },
      };
    }
    return null;
  };

  const server = await startDoubleServer(route, { error: 'internal_server_error', message: 'Internal server error' });
  return {
    exchange: 'coinbase',
    orderPath: '/api/v3/brokerage/orders',
    marketId: PRODUCT,
    env: {
      CAMBIO_VENUE: 'ccxt:coinbase',
      CAMBIO_VENUE_API_KEY: DOUBLE_KEYS.coinbase.key,
      CAMBIO_VENUE_SECRET: DOUBLE_KEYS.coinbase.secret,
    },
    ...st.controls,
    ...server,
    get orders() {
      return st.account.orders;
    },
  };
}
