import type { DoubleOrder } from './binance-account.ts';
import { startDoubleServer, type DoubleAnswer, type DoubleRequest } from './double-server.ts';
import { btcUsdt, DOUBLE_KEYS, doubleState, keyOf, type ExchangeDouble } from './exchange-double.ts';
import { sum } from './kraken-double.ts';

/**
 * A loopback double of OKX's REST API v5 as CCXT's `okx` class calls it: SPOT instruments, books, market
 * orders with clOrdId (the answer carries ids only), the order by clOrdId, its fills, the trading and
 * funding balances, deposit addresses and history. Every answer is `{code, msg, data}`, an error's code
 * OKX's own (51008 insufficient balance, 51603 order does not exist) with HTTP 200. The OK-ACCESS-KEY and
 * OK-ACCESS-PASSPHRASE headers are checked, the signature is not. Fees are charged in the asset received
 * and written negative, as OKX does.
 */
const INST = 'BTC-USDT';
/** OKX's chain names: "<coin>-<network>". */
const CHAIN: Record<string, string> = { BTC: 'Bitcoin', TRX: 'TRC20', ETH: 'ERC20' };

const ok = (data: unknown[]): DoubleAnswer => ({ status: 200, body: { code: '0', msg: '', data } });
const fail = (code: string, msg: string, data: unknown[] = []): DoubleAnswer => ({ status: 200, body: { code, msg, data } });

export async function startOkxDouble(): Promise<ExchangeDouble> {
  const st = doubleState(btcUsdt(INST));
  const ordIdOf = (o: DoubleOrder) => String(612_000_000_000_000_000n + BigInt(o.orderId));
  const neg = (t: string) => (/^0(\.0*)?$/.test(t) ? '0' : `-${t}`);
  const orderWire = (o: DoubleOrder) => {
    const fee = o.fills.reduce((s, f) => sum(s, f.commission), '0');
    return {
      instType: 'SPOT',
      instId: INST,
      ordId: ordIdOf(o),
      clOrdId: o.clientOrderId,
      tag: '',
      px: '',
      sz: o.side === 'SELL' ? o.origQty : o.cummulativeQuoteQty,
      ordType: 'market',
      side: o.side === 'SELL' ? 'sell' : 'buy',
      tdMode: 'cash',
      tgtCcy: o.side === 'SELL' ? 'base_ccy' : 'quote_ccy',
      accFillSz: o.executedQty,
      fillPx: o.fills.at(-1)?.price ?? '',
      fillSz: o.fills.at(-1)?.qty ?? '0',
      avgPx: '',
      state: o.status === 'FILLED' ? 'filled' : 'canceled',
      fee: neg(fee),
      feeCcy: o.fills[0]?.commissionAsset ?? (o.side === 'SELL' ? 'USDT' : 'BTC'),
      cancelSource: o.status === 'FILLED' ? '' : '14',
      cTime: String(o.transactTime),
      uTime: String(o.transactTime),
    };
  };

  const route = (r: DoubleRequest): DoubleAnswer | null => {
    const key = `${r.method} ${r.path}`;
    const q = r.query;
    if (key === 'GET /api/v5/public/time') return ok([{ ts: String(Date.now()) }]);
    if (key === 'GET /api/v5/public/instruments') {
      if (q.get('instType') !== 'SPOT') return ok([]);
      const s = st.account.symbols[0]!;
      return ok([
        {
          instType: 'SPOT',
          instId: INST,
          uly: '',
          instFamily: '',
          baseCcy: s.base,
          quoteCcy: s.quote,
          settleCcy: '',
          ctVal: '',
          ctMult: '',
          ctValCcy: '',
          optType: '',
          stk: '',
          listTime: '1606468572000',
          expTime: '',
          lever: '10',
          tickSz: s.tick,
          lotSz: s.step,
          minSz: s.minQty,
          ctType: '',
          alias: '',
          state: 'live',
          maxLmtSz: '9999999999',
          maxMktSz: '1000000',
          maxTwapSz: '9999999999',
          maxIcebergSz: '9999999999',
          maxTriggerSz: '9999999999',
          maxStopSz: '1000000',
          ruleType: 'normal',
        },
      ]);
    }
    if (key === 'GET /api/v5/market/books') {
      if (q.get('instId') !== INST) return fail('51001', "Instrument ID doesn't exist.");
      const book = st.account.books.get(INST) ?? { bids: [], asks: [] };
      const n = Number(q.get('sz') ?? '1');
      const level = (l: [string, string]) => [l[0], l[1], '0', '1'];
      return ok([{ asks: book.asks.slice(0, n).map(level), bids: book.bids.slice(0, n).map(level), ts: String(Date.now()) }]);
    }
    if (!r.path.startsWith('/api/v5/')) return null;
    if (keyOf(r, 'OK-ACCESS-KEY') !== DOUBLE_KEYS.okx.key)
      return { status: 401, body: { code: '50111', msg: 'Invalid OK-ACCESS-KEY', data: [] } };
    if (keyOf(r, 'OK-ACCESS-PASSPHRASE') !== DOUBLE_KEYS.okx.password)
      return { status: 401, body: { code: '50105', msg: 'Invalid OK-ACCESS-PASSPHRASE', data: [] } };
    const p = r.body;
    if (key === 'POST /api/v5/trade/order') {
      const cid = String(p['clOrdId'] ?? '');
      if (!/^[A-Za-z0-9]{1,32}$/.test(cid))
        return fail('1', 'All operations failed', [{ clOrdId: cid, ordId: '', sCode: '51000', sMsg: 'Parameter clOrdId error', tag: '' }]);
      if (st.flags.refuseNext) {
        st.flags.refuseNext = false;
        return fail('1', 'All operations failed', [
          { clOrdId: cid, ordId: '', sCode: '51008', sMsg: 'Order failed. Insufficient BTC balance in account.', tag: '' },
        ]);
      }
      if (st.account.orders.some((o) => o.clientOrderId === cid))
        return fail('1', 'All operations failed', [{ clOrdId: cid, ordId: '', sCode: '51016', sMsg: 'Duplicated clOrdId', tag: '' }]);
      if (p['instId'] !== INST || p['ordType'] !== 'market' || p['tdMode'] !== 'cash')
        return fail('1', 'All operations failed', [{ clOrdId: cid, ordId: '', sCode: '51000', sMsg: 'Parameter error', tag: '' }]);
      const sell = p['side'] === 'sell';
      const inQuote = p['tgtCcy'] === 'quote_ccy';
      const o = st.account.execute({
        symbol: INST,
        side: sell ? 'SELL' : 'BUY',
        clientOrderId: cid,
        timestamp: Date.now(),
        recvWindow: null,
        ...(sell && !inQuote ? { quantity: String(p['sz']) } : !sell && inQuote ? { quoteOrderQty: String(p['sz']) } : {}),
      });
      if ('code' in o)
        return fail('1', 'All operations failed', [
          { clOrdId: cid, ordId: '', sCode: /insufficient/i.test(o.msg) ? '51008' : '51000', sMsg: o.msg, tag: '' },
        ]);
      if (st.flags.dropNext) {
        st.flags.dropNext = false;
        return 'drop';
      }
      return ok([{ clOrdId: cid, ordId: ordIdOf(o), tag: '', ts: String(Date.now()), sCode: '0', sMsg: 'Order placed' }]);
    }
    if (key === 'GET /api/v5/trade/order') {
      const cid = q.get('clOrdId');
      const o = st.account.orders.find((x) => (cid ? x.clientOrderId === cid : ordIdOf(x) === q.get('ordId')));
      if (!o) return fail('51603', 'Order does not exist');
      return ok([orderWire(o)]);
    }
    if (key === 'GET /api/v5/trade/fills') {
      const o = st.account.orders.find((x) => ordIdOf(x) === q.get('ordId'));
      return ok(
        (o?.fills ?? []).map((f) => ({
          instType: 'SPOT',
          instId: INST,
          tradeId: String(f.tradeId),
          ordId: ordIdOf(o!),
          clOrdId: o!.clientOrderId,
          billId: String(f.tradeId + 9000),
          tag: '',
          fillPx: f.price,
          fillSz: f.qty,
          side: o!.side === 'SELL' ? 'sell' : 'buy',
          posSide: 'net',
          execType: 'T',
          feeCcy: f.commissionAsset,
          fee: neg(f.commission),
          ts: String(o!.transactTime),
        })),
      );
    }
    if (key === 'GET /api/v5/account/balance')
      return ok([
        {
          uTime: String(Date.now()),
          totalEq: '0',
          details: st.account.balanceRows().map((b) => ({
            ccy: b.asset,
            cashBal: sum(b.free, b.locked),
            availBal: b.free,
            frozenBal: b.locked,
            eq: sum(b.free, b.locked),
            uTime: String(Date.now()),
          })),
        },
      ]);
    if (key === 'GET /api/v5/asset/balances') return ok([]); // the funding account holds nothing here
    if (key === 'GET /api/v5/asset/deposit-address') {
      const ccy = q.get('ccy') ?? '';
      const rows = [...st.addresses]
        .filter(([k]) => k.startsWith(`${ccy}:`))
        .map(([k, addr]) => ({
          chain: `${ccy}-${CHAIN[k.split(':')[1]!] ?? k.split(':')[1]}`,
          ctAddr: '',
          ccy,
          to: '6',
          addr,
          selected: true,
        }));
      if (rows.length === 0) return fail('58003', 'Currency does not support deposit');
      return ok(rows);
    }
    if (key === 'GET /api/v5/asset/deposit-history')
      return ok(
        [...st.deposits].reverse().map((d, i) => ({
          actualDepBlkConfirm: '2',
          amt: d.amount,
          areaCodeFrom: '',
          ccy: d.coin,
          chain: `${d.coin}-${CHAIN[d.network] ?? d.network}`,
          depId: String(88_000 + i),
          from: '',
          fromWdId: '',
          state: d.completed ? '2' : '0',
          to: 'deposit-address',
          ts: String(d.at),
          txId: d.txId,
        })),
      );
    return null;
  };

  const server = await startDoubleServer(route, { code: '50001', msg: 'Service temporarily unavailable. Try again later', data: [] });
  return {
    exchange: 'okx',
    orderPath: '/api/v5/trade/order',
    marketId: INST,
    env: {
      CAMBIO_VENUE: 'ccxt:okx',
      CAMBIO_VENUE_API_KEY: DOUBLE_KEYS.okx.key,
      CAMBIO_VENUE_SECRET: DOUBLE_KEYS.okx.secret,
      CAMBIO_VENUE_PASSWORD: DOUBLE_KEYS.okx.password,
    },
    ...st.controls,
    ...server,
    get orders() {
      return st.account.orders;
    },
  };
}
