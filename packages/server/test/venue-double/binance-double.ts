import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DoubleAccount, type DoubleOrder, type Level, type SymbolSpec } from './binance-account.ts';

/**
 * A loopback double of Binance's spot REST API, as CCXT's `binance` class calls it: exchange info,
 * time, depth, market orders with client order ids (FULL answers), order lookup, account balances,
 * deposit address and history. Signed requests are verified (X-MBX-APIKEY, HMAC-SHA256 of the query
 * and body) and answered with Binance's own errors otherwise. Controls let a test move the book,
 * refuse, drop or hold the answer of the next order, fail requests with a 5xx, and add deposits.
 */
export const DOUBLE_KEY = 'double-api-key-7f3a9c';
export const DOUBLE_SECRET = 'double-api-secret-b81e44d0';

export const BTCUSDT: SymbolSpec = {
  symbol: 'BTCUSDT',
  base: 'BTC',
  quote: 'USDT',
  step: '0.00001',
  minQty: '0.00001',
  tick: '0.01',
  minNotional: '5',
};

export interface Deposit {
  coin: string;
  network: string;
  amount: string;
  txId: string;
  status: number;
  address: string;
  insertTime: number;
}
/** A withdrawal the double recorded, as Binance's history shows it (status 6 completed, 4 processing, 1/3/5 ended unsent). */
export interface DoubleWithdrawal {
  id: string;
  withdrawOrderId: string;
  coin: string;
  network: string;
  address: string;
  addressTag: string;
  amount: string;
  transactionFee: string;
  status: number;
  txId: string;
  applyTime: number;
  info: string;
}
type Fault = { kind: 'status'; status: number } | { kind: 'drop' };
interface FaultRule {
  path: string;
  fault: Fault;
  times: number;
  method: string | undefined;
}

export async function startBinanceDouble(opts: { symbols?: SymbolSpec[] } = {}) {
  const account = new DoubleAccount(opts.symbols ?? [BTCUSDT]);
  const deposits: Deposit[] = [];
  const addresses = new Map<string, string>();
  /** Every request's method and path, to see what a client asked for. */
  const requests: Array<{ method: string; path: string }> = [];
  /** Paths no handler knew. */
  const unknown: string[] = [];
  const faults: FaultRule[] = [];
  let refuseNext: { code: number; msg: string } | null = null;
  let dropAfterNextOrder = false;
  let holdNext: ((o: DoubleOrder) => void) | null = null;
  let expireNextAfter: string | null = null;
  const withdrawals: DoubleWithdrawal[] = [];
  /** Withdrawal fees per `coin:network`, Binance's capital/config/getall. */
  const withdrawFees = new Map<string, string>([
    ['BTC:BTC', '0.0002'],
    ['ETH:ETH', '0.0012'],
    ['USDT:ETH', '4.5'],
  ]);
  let withdrawalsComplete = true;
  let refuseNextWithdrawal: { code: number; msg: string } | null = null;
  let dropAfterNextWithdrawal = false;
  let holdNextWithdrawal: ((w: DoubleWithdrawal) => void) | null = null;
  /** Requests to these paths wait, unanswered, until the test opens their gate. */
  const gates: Array<{ path: string; arrived: () => void; opened: Promise<void> }> = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const err = (res: ServerResponse, status: number, code: number, msg: string) => send(res, status, { code, msg });

  const orderWire = (o: DoubleOrder, full: boolean) => ({
    symbol: o.symbol,
    orderId: o.orderId,
    orderListId: -1,
    clientOrderId: o.clientOrderId,
    transactTime: o.transactTime,
    price: '0.00000000',
    origQty: o.origQty,
    executedQty: o.executedQty,
    origQuoteOrderQty: '0.00000000',
    cummulativeQuoteQty: o.cummulativeQuoteQty,
    status: o.status,
    timeInForce: 'GTC',
    type: o.type,
    side: o.side,
    workingTime: o.transactTime,
    selfTradePreventionMode: 'NONE',
    ...(full
      ? { fills: o.fills }
      : { stopPrice: '0.00000000', icebergQty: '0.00000000', time: o.transactTime, updateTime: o.transactTime, isWorking: false }),
  });

  /** Binance's signed-request check: the key first (-2015), then the signature over query and body (-1022). */
  const verify = (
    req: IncomingMessage,
    query: string,
    body: string,
  ): { ok: true; params: URLSearchParams } | { ok: false; status: number; code: number; msg: string } => {
    if (req.headers['x-mbx-apikey'] !== DOUBLE_KEY)
      return { ok: false, status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
    const total = query + body;
    const at = total.lastIndexOf('&signature=');
    const given = at >= 0 ? total.slice(at + '&signature='.length) : '';
    const want = createHmac('sha256', DOUBLE_SECRET)
      .update(at >= 0 ? total.slice(0, at) : total)
      .digest('hex');
    if (given.length !== want.length || !timingSafeEqual(Buffer.from(given), Buffer.from(want))) {
      return { ok: false, status: 400, code: -1022, msg: 'Signature for this request is not valid.' };
    }
    return { ok: true, params: new URLSearchParams(total) };
  };

  const exchangeInfo = () => ({
    timezone: 'UTC',
    serverTime: Date.now(),
    rateLimits: [],
    exchangeFilters: [],
    symbols: account.symbols.map((s) => ({
      symbol: s.symbol,
      status: 'TRADING',
      baseAsset: s.base,
      baseAssetPrecision: 8,
      quoteAsset: s.quote,
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      baseCommissionPrecision: 8,
      quoteCommissionPrecision: 8,
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'],
      icebergAllowed: true,
      ocoAllowed: true,
      otoAllowed: true,
      quoteOrderQtyMarketAllowed: true,
      allowTrailingStop: true,
      cancelReplaceAllowed: true,
      amendAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: s.tick, maxPrice: '1000000.00000000', tickSize: s.tick },
        { filterType: 'LOT_SIZE', minQty: s.minQty, maxQty: '9000.00000000', stepSize: s.step },
        {
          filterType: 'NOTIONAL',
          minNotional: s.minNotional,
          applyMinToMarket: true,
          maxNotional: '9000000.00000000',
          applyMaxToMarket: false,
          avgPriceMins: 5,
        },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0.00000000', maxQty: '100.00000000', stepSize: '0.00000000' },
      ],
      permissions: [],
      permissionSets: [['SPOT']],
      defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
      allowedSelfTradePreventionModes: ['NONE', 'EXPIRE_MAKER'],
    })),
  });

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const path = url.pathname;
    const gate = gates.findIndex((g) => g.path === path);
    if (gate >= 0) {
      const [g] = gates.splice(gate, 1);
      g!.arrived();
      void g!.opened.then(() => handle(req, res, body));
      return;
    }
    const query = url.search.slice(1);
    requests.push({ method: req.method ?? 'GET', path });
    const f = faults.find((x) => x.times > 0 && path.startsWith(x.path) && (x.method === undefined || x.method === req.method));
    if (f) {
      f.times -= 1;
      if (f.fault.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      return send(res, f.fault.status, { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' });
    }
    const key = `${req.method} ${path}`;
    // Public endpoints.
    if (key === 'GET /api/v3/time') return send(res, 200, { serverTime: Date.now() });
    if (key === 'GET /api/v3/ping') return send(res, 200, {});
    if (key === 'GET /api/v3/exchangeInfo') return send(res, 200, exchangeInfo());
    if (key === 'GET /api/v3/depth') {
      const symbol = url.searchParams.get('symbol') ?? '';
      const book = account.books.get(symbol);
      if (!book) return err(res, 400, -1121, 'Invalid symbol.');
      const limit = Number(url.searchParams.get('limit') ?? '100');
      return send(res, 200, { lastUpdateId: 1, bids: book.bids.slice(0, limit), asks: book.asks.slice(0, limit) });
    }
    const signed = [
      '/api/v3/order',
      '/api/v3/myTrades',
      '/api/v3/account',
      '/sapi/v1/capital/deposit/address',
      '/sapi/v1/capital/deposit/hisrec',
      '/sapi/v1/capital/config/getall',
      '/sapi/v1/capital/withdraw/apply',
      '/sapi/v1/capital/withdraw/history',
    ];
    if (!signed.includes(path)) {
      unknown.push(key);
      return err(res, 404, -1000, `the double does not answer ${key}`);
    }
    const v = verify(req, query, body);
    if (!v.ok) return err(res, v.status, v.code, v.msg);
    const p = v.params;
    if (key === 'POST /api/v3/order') {
      if (refuseNext) {
        const r = refuseNext;
        refuseNext = null;
        return err(res, 400, r.code, r.msg);
      }
      if (p.get('type') !== 'MARKET') return err(res, 400, -1116, 'Invalid orderType.');
      const expireAfter = expireNextAfter;
      expireNextAfter = null;
      const o = account.execute(
        {
          symbol: p.get('symbol') ?? '',
          side: p.get('side') === 'BUY' ? 'BUY' : 'SELL',
          clientOrderId: p.get('newClientOrderId') ?? `auto${Date.now()}`,
          timestamp: Number(p.get('timestamp')),
          recvWindow: p.has('recvWindow') ? Number(p.get('recvWindow')) : null,
          ...(p.has('quantity') ? { quantity: p.get('quantity')! } : {}),
          ...(p.has('quoteOrderQty') ? { quoteOrderQty: p.get('quoteOrderQty')! } : {}),
        },
        expireAfter ? { expireAfter } : {},
      );
      if ('code' in o) return err(res, 400, o.code, o.msg);
      if (holdNext) {
        const recorded = holdNext;
        holdNext = null;
        recorded(o); // recorded and executed; the answer never leaves while the client waits for it
        return;
      }
      if (dropAfterNextOrder) {
        dropAfterNextOrder = false;
        req.socket.destroy(); // recorded and executed, never answered
        return;
      }
      return send(res, 200, orderWire(o, p.get('newOrderRespType') !== 'RESULT'));
    }
    if (key === 'GET /api/v3/order') {
      const cid = p.get('origClientOrderId');
      const o = [...account.orders]
        .reverse()
        .find((x) => x.symbol === p.get('symbol') && (cid ? x.clientOrderId === cid : String(x.orderId) === p.get('orderId')));
      if (!o) return err(res, 400, -2013, 'Order does not exist.');
      return send(res, 200, orderWire(o, false));
    }
    if (key === 'GET /api/v3/myTrades') {
      const o = account.orders.find((x) => x.symbol === p.get('symbol') && String(x.orderId) === p.get('orderId'));
      return send(
        res,
        200,
        (o?.fills ?? []).map((f) => ({
          symbol: o!.symbol,
          id: f.tradeId,
          orderId: o!.orderId,
          orderListId: -1,
          price: f.price,
          qty: f.qty,
          quoteQty: '0',
          commission: f.commission,
          commissionAsset: f.commissionAsset,
          time: o!.transactTime,
          isBuyer: o!.side === 'BUY',
          isMaker: false,
          isBestMatch: true,
        })),
      );
    }
    if (key === 'GET /api/v3/account') {
      return send(res, 200, {
        makerCommission: 10,
        takerCommission: 10,
        buyerCommission: 0,
        sellerCommission: 0,
        canTrade: true,
        canWithdraw: true,
        canDeposit: true,
        brokered: false,
        requireSelfTradePrevention: false,
        preventSor: false,
        updateTime: Date.now(),
        accountType: 'SPOT',
        balances: account.balanceRows(),
        permissions: ['SPOT'],
        uid: 1,
      });
    }
    if (key === 'GET /sapi/v1/capital/deposit/address') {
      const coin = p.get('coin') ?? '';
      const address = addresses.get(`${coin}:${p.get('network') ?? ''}`) ?? addresses.get(`${coin}:`);
      if (!address) return err(res, 400, -4018, 'The coin is not supported.');
      return send(res, 200, { coin, address, tag: '', url: '' });
    }
    if (key === 'GET /sapi/v1/capital/deposit/hisrec') {
      return send(
        res,
        200,
        deposits.map((d, i) => ({
          id: String(i + 1),
          amount: d.amount,
          coin: d.coin,
          network: d.network,
          status: d.status,
          address: d.address,
          addressTag: '',
          txId: d.txId,
          insertTime: d.insertTime,
          transferType: 0,
          confirmTimes: '1/1',
          unlockConfirm: 0,
          walletType: 0,
        })),
      );
    }
    if (key === 'GET /sapi/v1/capital/config/getall') {
      const coins = new Map<string, Array<{ network: string; fee: string }>>();
      for (const [k, fee] of withdrawFees) {
        const [coin, network] = k.split(':') as [string, string];
        coins.set(coin, [...(coins.get(coin) ?? []), { network, fee }]);
      }
      return send(
        res,
        200,
        [...coins].map(([coin, nets]) => ({
          coin,
          name: coin,
          depositAllEnable: true,
          withdrawAllEnable: true,
          free: '0',
          locked: '0',
          trading: true,
          networkList: nets.map((n, i) => ({
            network: n.network,
            coin,
            name: n.network,
            isDefault: i === 0,
            depositEnable: true,
            withdrawEnable: true,
            withdrawFee: n.fee,
            withdrawMin: n.fee,
            withdrawMax: '9999999',
            withdrawIntegerMultiple: '0.00000001',
            minConfirm: 1,
            unLockConfirm: 0,
            specialTips: '',
            busy: false,
          })),
        })),
      );
    }
    if (key === 'POST /sapi/v1/capital/withdraw/apply') {
      if (refuseNextWithdrawal) {
        const r = refuseNextWithdrawal;
        refuseNextWithdrawal = null;
        return err(res, 400, r.code, r.msg);
      }
      const coin = p.get('coin') ?? '';
      const network = p.get('network') ?? '';
      const amount = p.get('amount') ?? '';
      const fee = withdrawFees.get(`${coin}:${network}`);
      if (fee === undefined) return err(res, 400, -4019, 'The current currency is not open for withdrawal.');
      if (!/^[0-9]+(\.[0-9]+)?$/.test(amount)) return err(res, 400, -1100, 'Illegal characters found in parameter amount.');
      if (!account.withdraw(coin, amount)) return err(res, 400, -4026, 'The user has insufficient balance available');
      const w: DoubleWithdrawal = {
        id: `w${String(withdrawals.length + 1).padStart(31, '0')}`,
        withdrawOrderId: p.get('withdrawOrderId') ?? '',
        coin,
        network,
        address: p.get('address') ?? '',
        addressTag: p.get('addressTag') ?? '',
        amount,
        transactionFee: fee,
        status: withdrawalsComplete ? 6 : 4,
        txId: withdrawalsComplete ? txidOf(withdrawals.length + 1) : '',
        applyTime: Date.now(),
        info: '',
      };
      withdrawals.push(w);
      if (holdNextWithdrawal) {
        const recorded = holdNextWithdrawal;
        holdNextWithdrawal = null;
        recorded(w); // recorded; the answer never leaves while the client waits for it
        return;
      }
      if (dropAfterNextWithdrawal) {
        dropAfterNextWithdrawal = false;
        req.socket.destroy(); // recorded, never answered
        return;
      }
      return send(res, 200, { id: w.id });
    }
    if (key === 'GET /sapi/v1/capital/withdraw/history') {
      const byOrder = p.get('withdrawOrderId');
      const coin = p.get('coin');
      return send(
        res,
        200,
        withdrawals
          .filter((w) => (!byOrder || w.withdrawOrderId === byOrder) && (!coin || w.coin === coin))
          .reverse()
          .map((w) => ({
            id: w.id,
            amount: w.amount,
            transactionFee: w.transactionFee,
            coin: w.coin,
            status: w.status,
            address: w.address,
            ...(w.addressTag ? { addressTag: w.addressTag } : {}),
            txId: w.txId,
            applyTime: new Date(w.applyTime).toISOString().replace('T', ' ').slice(0, 19),
            network: w.network,
            transferType: 0,
            withdrawOrderId: w.withdrawOrderId,
            info: w.info,
            confirmNo: w.status === 6 ? 3 : 0,
            walletType: 0,
            txKey: '',
            ...(w.status === 6 ? { completeTime: new Date(w.applyTime).toISOString().replace('T', ' ').slice(0, 19) } : {}),
          })),
      );
    }
    unknown.push(key);
    return err(res, 404, -1000, `the double does not answer ${key}`);
  };
  const txidOf = (n: number) => createHmac('sha256', 'double-txid').update(String(n)).digest('hex');

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    account,
    requests,
    unknown,
    /** Orders the double recorded (executed), oldest first. */
    get orders() {
      return account.orders;
    },
    setBook(symbol: string, book: { bids: Level[]; asks: Level[] }) {
      account.books.set(symbol, book);
    },
    setBalance(asset: string, free: string, locked = '0') {
      account.setBalance(asset, free, locked);
    },
    /** The next order is refused with this Binance error (e.g. -2010 insufficient balance). */
    refuseNextOrder(code = -2010, msg = 'Account has insufficient balance for requested action.') {
      refuseNext = { code, msg };
    },
    /** The next order is recorded and executed, then the connection is cut before any answer. */
    dropAfterNextOrder() {
      dropAfterNextOrder = true;
    },
    /**
     * The next order is recorded and executed, and its answer is held back for good (the client waits until
     * it gives up or dies); resolves with the order once it is recorded.
     */
    holdNextOrder(): Promise<DoubleOrder> {
      return new Promise((resolve) => {
        holdNext = resolve;
      });
    },
    /**
     * The next request to `path` is held, unanswered, until `release` (a venue that hangs): `arrived`
     * resolves once it came in. Released, it is answered as usual.
     */
    holdNextAnswer(path: string): { arrived: Promise<void>; release: () => void } {
      let arrived!: () => void;
      let release!: () => void;
      const seen = new Promise<void>((r) => {
        arrived = r;
      });
      const opened = new Promise<void>((r) => {
        release = r;
      });
      gates.push({ path, arrived, opened });
      return { arrived: seen, release };
    },
    /** How many orders the double recorded for each client order id. */
    ordersPerClientId(): Map<string, number> {
      const n = new Map<string, number>();
      for (const o of account.orders) n.set(o.clientOrderId, (n.get(o.clientOrderId) ?? 0) + 1);
      return n;
    },
    /** The next market order stops after this base quantity: EXPIRED with part of it filled. */
    expireNextOrderAfter(qty: string) {
      expireNextAfter = qty;
    },
    /** The next `times` requests whose path starts with `path` (and of `method`, when given) get this status (or a cut connection). */
    fail(path: string, fault: number | 'drop', times = 1, method?: 'GET' | 'POST') {
      faults.push({ path, fault: fault === 'drop' ? { kind: 'drop' } : { kind: 'status', status: fault }, times, method });
    },
    clearFaults() {
      faults.length = 0;
    },
    setDepositAddress(coin: string, network: string, address: string) {
      addresses.set(`${coin}:${network}`, address);
    },
    addDeposit(d: Omit<Deposit, 'insertTime' | 'address'> & { address?: string }) {
      deposits.push({ address: 'addr', insertTime: Date.now(), ...d });
    },
    /** A deposit in the history completes (Binance status 1). */
    completeDeposit(txId: string) {
      for (const d of deposits) if (d.txId === txId) d.status = 1;
    },
    /** Withdrawals the double recorded, oldest first. */
    withdrawals,
    /** How many withdrawals the double recorded for each withdraw order id. */
    withdrawalsPerOrderId(): Map<string, number> {
      const n = new Map<string, number>();
      for (const w of withdrawals) n.set(w.withdrawOrderId, (n.get(w.withdrawOrderId) ?? 0) + 1);
      return n;
    },
    setWithdrawFee(coin: string, network: string, fee: string) {
      withdrawFees.set(`${coin}:${network}`, fee);
    },
    /** false: new withdrawals stay processing (status 4) until completeWithdrawal or failWithdrawal. */
    completeWithdrawalsAtOnce(yes: boolean) {
      withdrawalsComplete = yes;
    },
    completeWithdrawal(withdrawOrderId: string) {
      for (const w of withdrawals)
        if (w.withdrawOrderId === withdrawOrderId) {
          w.status = 6;
          w.txId = txidOf(withdrawals.indexOf(w) + 1);
        }
    },
    /** The withdrawal ends without being sent (Binance status 5, failure, or 3, rejected); its amount comes back. */
    failWithdrawal(withdrawOrderId: string, status: 3 | 5 = 5, info = 'address risk check failed') {
      for (const w of withdrawals)
        if (w.withdrawOrderId === withdrawOrderId && w.status !== status) {
          w.status = status;
          w.info = info;
          account.refund(w.coin, w.amount);
        }
    },
    refuseNextWithdrawal(code = -4026, msg = 'The user has insufficient balance available') {
      refuseNextWithdrawal = { code, msg };
    },
    /** The next withdrawal is recorded and its answer held back for good; resolves with it once recorded. */
    holdNextWithdrawal(): Promise<DoubleWithdrawal> {
      return new Promise((resolve) => {
        holdNextWithdrawal = resolve;
      });
    },
    /** The next withdrawal is recorded, then the connection is cut before any answer. */
    dropAfterNextWithdrawal() {
      dropAfterNextWithdrawal = true;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type BinanceDouble = Awaited<ReturnType<typeof startBinanceDouble>>;
