import type { DoubleOrder } from './binance-account.ts';
import { startDoubleServer, type DoubleAnswer, type DoubleRequest } from './double-server.ts';
import { btcUsdt, DOUBLE_KEYS, doubleState, hexOf, keyOf, orderFees, type ExchangeDouble } from './exchange-double.ts';

/**
 * A loopback double of Kraken's spot REST API (/0/public, /0/private) as CCXT's `kraken` class calls it:
 * assets, asset pairs, depth, AddOrder with cl_ord_id, QueryOrders, OpenOrders / ClosedOrders by
 * cl_ord_id, Balance, deposit methods, addresses and status. Every answer is `{error: [...], result}`
 * with HTTP 200, errors in Kraken's words ("EOrder:Insufficient funds"). The API-Key header is checked,
 * the signature is not. Fees are charged in the quote currency (Kraken's default).
 */
const PAIR = 'XBTUSDT';
const KRAKEN_ASSET: Record<string, string> = { BTC: 'XXBT', USDT: 'USDT', USD: 'ZUSD', ETH: 'XETH' };
const ALTNAME: Record<string, string> = { XXBT: 'XBT', USDT: 'USDT', ZUSD: 'USD', XETH: 'ETH' };
const UNIFIED: Record<string, string> = { XXBT: 'BTC', XBT: 'BTC', USDT: 'USDT', ZUSD: 'USD', XETH: 'ETH', ETH: 'ETH', USD: 'USD' };
/** Kraken's deposit methods per asset, and the unified network each stands for. */
const METHODS: Record<string, Array<{ method: string; network: string }>> = {
  BTC: [
    { method: 'Bitcoin Lightning', network: 'LIGHTNING' },
    { method: 'Bitcoin', network: 'BTC' },
  ],
  USDT: [
    { method: 'Tether USD (ERC20)', network: 'ETH' },
    { method: 'Tether USD (TRC20)', network: 'TRX' },
  ],
};

const ok = (result: unknown): DoubleAnswer => ({ status: 200, body: { error: [], result } });
const fail = (...error: string[]): DoubleAnswer => ({ status: 200, body: { error } });

export async function startKrakenDouble(): Promise<ExchangeDouble> {
  const st = doubleState(btcUsdt(PAIR));
  st.account.feeIn = 'quote';
  const txidOf = (o: DoubleOrder) => {
    const h = hexOf(o.orderId, 16).toUpperCase();
    return `O${h.slice(0, 5)}-${h.slice(5, 10)}-${h.slice(10, 16)}`;
  };
  const orderWire = (o: DoubleOrder) => ({
    refid: null,
    userref: 0,
    cl_ord_id: o.clientOrderId,
    status: o.status === 'FILLED' ? 'closed' : 'canceled',
    reason: o.status === 'FILLED' ? null : 'Insufficient liquidity',
    opentm: o.transactTime / 1000,
    closetm: o.transactTime / 1000,
    starttm: 0,
    expiretm: 0,
    descr: {
      pair: PAIR,
      type: o.side === 'SELL' ? 'sell' : 'buy',
      ordertype: 'market',
      price: '0',
      price2: '0',
      leverage: 'none',
      order: `${o.side === 'SELL' ? 'sell' : 'buy'} ${o.origQty} ${PAIR} @ market`,
      close: '',
    },
    vol: o.origQty,
    vol_exec: o.executedQty,
    cost: o.cummulativeQuoteQty,
    fee: orderFees(o),
    price: '0',
    stopprice: '0.00000',
    limitprice: '0.00000',
    misc: '',
    oflags: o.side === 'SELL' ? 'fciq' : 'fciq,viqc',
  });
  const assetOf = (a: unknown) => UNIFIED[String(a)] ?? String(a);

  const route = (r: DoubleRequest): DoubleAnswer | null => {
    const key = `${r.method} ${r.path}`;
    if (key === 'GET /0/public/Time') return ok({ unixtime: Math.floor(Date.now() / 1000), rfc1123: new Date().toUTCString() });
    if (key === 'GET /0/public/Assets')
      return ok(
        Object.fromEntries(
          Object.entries(ALTNAME).map(([id, altname]) => [
            id,
            { aclass: 'currency', altname, decimals: 10, display_decimals: 5, collateral_value: 1, status: 'enabled' },
          ]),
        ),
      );
    if (key === 'GET /0/public/AssetPairs')
      return ok({
        [PAIR]: {
          altname: PAIR,
          wsname: 'XBT/USDT',
          aclass_base: 'currency',
          base: 'XXBT',
          aclass_quote: 'currency',
          quote: 'USDT',
          lot: 'unit',
          cost_decimals: 2,
          pair_decimals: 1,
          lot_decimals: 8,
          lot_multiplier: 1,
          leverage_buy: [],
          leverage_sell: [],
          fees: [[0, 0.1]],
          fees_maker: [[0, 0.1]],
          fee_volume_currency: 'ZUSD',
          margin_call: 80,
          margin_stop: 40,
          ordermin: '0.00001',
          costmin: '1',
          tick_size: '0.1',
          status: 'online',
        },
      });
    if (key === 'GET /0/public/Depth') {
      if (r.query.get('pair') !== PAIR) return fail('EQuery:Unknown asset pair');
      const book = st.account.books.get(PAIR) ?? { bids: [], asks: [] };
      const n = Number(r.query.get('count') ?? '100');
      const at = Math.floor(Date.now() / 1000);
      return ok({ [PAIR]: { bids: book.bids.slice(0, n).map((l) => [...l, at]), asks: book.asks.slice(0, n).map((l) => [...l, at]) } });
    }
    if (!r.path.startsWith('/0/private/')) return null;
    if (keyOf(r, 'API-Key') !== DOUBLE_KEYS.kraken.key) return fail('EAPI:Invalid key');
    const p = r.body;
    if (key === 'POST /0/private/AddOrder') {
      if (st.flags.refuseNext) {
        st.flags.refuseNext = false;
        return fail('EOrder:Insufficient funds');
      }
      if (p['ordertype'] !== 'market') return fail('EGeneral:Invalid arguments:ordertype');
      if (p['pair'] !== PAIR) return fail('EQuery:Unknown asset pair');
      const cid = String(p['cl_ord_id'] ?? '');
      if (cid && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[0-9a-f]{32}$|^.{1,18}$/.test(cid))
        return fail('EGeneral:Invalid arguments:cl_ord_id');
      if (p['deadline'] !== undefined && !(Date.parse(String(p['deadline'])) > Date.now())) return fail('EOrder:Deadline elapsed');
      const sell = p['type'] === 'sell';
      const viqc = String(p['oflags'] ?? '').includes('viqc');
      const o = st.account.execute({
        symbol: PAIR,
        side: sell ? 'SELL' : 'BUY',
        clientOrderId: cid,
        timestamp: Date.now(),
        recvWindow: null,
        ...(sell ? { quantity: String(p['volume']) } : viqc ? { quoteOrderQty: String(p['volume']) } : {}),
      });
      if ('code' in o) return fail(/insufficient/i.test(o.msg) ? 'EOrder:Insufficient funds' : 'EOrder:Insufficient liquidity');
      if (st.flags.dropNext) {
        st.flags.dropNext = false;
        return 'drop';
      }
      return ok({ descr: { order: `${sell ? 'sell' : 'buy'} ${String(p['volume'])} ${PAIR} @ market` }, txid: [txidOf(o)] });
    }
    if (key === 'POST /0/private/QueryOrders') {
      const ids = String(p['txid'] ?? '').split(',');
      const found = st.account.orders.filter((o) => ids.includes(txidOf(o)));
      if (found.length === 0) return fail('EOrder:Invalid order');
      return ok(Object.fromEntries(found.map((o) => [txidOf(o), orderWire(o)])));
    }
    if (key === 'POST /0/private/OpenOrders') return ok({ open: {} }); // market orders end at once
    if (key === 'POST /0/private/ClosedOrders') {
      const cid = p['cl_ord_id'];
      const found = st.account.orders.filter((o) => cid === undefined || o.clientOrderId === cid);
      return ok({ closed: Object.fromEntries(found.map((o) => [txidOf(o), orderWire(o)])), count: found.length });
    }
    if (key === 'POST /0/private/Balance')
      return ok(Object.fromEntries(st.account.balanceRows().map((b) => [KRAKEN_ASSET[b.asset] ?? b.asset, sum(b.free, b.locked)])));
    if (key === 'POST /0/private/DepositMethods') {
      const methods = METHODS[assetOf(p['asset'])];
      if (!methods) return fail('EFunding:Unknown asset');
      return ok(methods.map((m) => ({ method: m.method, limit: false, fee: '0.0000000000', 'gen-address': true, minimum: '0.0001' })));
    }
    if (key === 'POST /0/private/DepositAddresses') {
      const coin = assetOf(p['asset']);
      const m = (METHODS[coin] ?? []).find((x) => x.method === p['method']);
      if (!m) return fail('EFunding:No funding method');
      const address = st.addresses.get(`${coin}:${m.network}`);
      return ok(address ? [{ address, expiretm: '0', new: false }] : []);
    }
    if (key === 'POST /0/private/DepositStatus')
      return ok(
        st.deposits.map((d, i) => ({
          method: (METHODS[d.coin] ?? []).find((m) => m.network === d.network)?.method ?? d.network,
          aclass: 'currency',
          asset: KRAKEN_ASSET[d.coin] ?? d.coin,
          refid: `FTQcuak-${i}`,
          txid: d.txId,
          info: 'deposit-address',
          amount: d.amount,
          fee: '0.0000000000',
          time: Math.floor(d.at / 1000),
          status: d.completed ? 'Success' : 'Pending',
        })),
      );
    return null;
  };

  const server = await startDoubleServer(route, { error: ['EService:Unavailable'] });
  return {
    exchange: 'kraken',
    orderPath: '/0/private/AddOrder',
    marketId: PAIR,
    env: { CAMBIO_VENUE: 'ccxt:kraken', CAMBIO_VENUE_API_KEY: DOUBLE_KEYS.kraken.key, CAMBIO_VENUE_SECRET: DOUBLE_KEYS.kraken.secret },
    ...st.controls,
    ...server,
    get orders() {
      return st.account.orders;
    },
  };
}

/** Two decimal texts added exactly. */
export function sum(a: string, b: string): string {
  const [aw, af = ''] = a.split('.');
  const [bw, bf = ''] = b.split('.');
  const s = Math.max(af.length, bf.length);
  const n = BigInt(aw! + af.padEnd(s, '0')) + BigInt(bw! + bf.padEnd(s, '0'));
  const t = n.toString().padStart(s + 1, '0');
  return s === 0 ? t : `${t.slice(0, -s)}.${t.slice(-s)}`;
}
