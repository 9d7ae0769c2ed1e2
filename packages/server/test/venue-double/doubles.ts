import { DOUBLE_KEY, DOUBLE_SECRET, startBinanceDouble } from './binance-double.ts';
import { startCoinbaseDouble } from './coinbase-double.ts';
import type { ExchangeDouble } from './exchange-double.ts';
import { startKrakenDouble } from './kraken-double.ts';
import { startOkxDouble } from './okx-double.ts';

/** Every exchange Cambio reads, each with its loopback double (venue-exchanges.test.ts runs the same scenarios on each). */
export const EXCHANGES = ['binance', 'kraken', 'okx', 'coinbase'] as const;

/** Binance's double (binance-double.ts) seen through the controls every double shares. */
async function binanceAsExchangeDouble(): Promise<ExchangeDouble> {
  const d = await startBinanceDouble();
  return {
    exchange: 'binance',
    origin: d.origin,
    marketId: 'BTCUSDT',
    orderPath: '/api/v3/order',
    env: { CAMBIO_VENUE: 'ccxt:binance', CAMBIO_VENUE_API_KEY: DOUBLE_KEY, CAMBIO_VENUE_SECRET: DOUBLE_SECRET },
    account: d.account,
    get orders() {
      return d.orders;
    },
    requests: d.requests,
    unknown: d.unknown,
    setBook: (book) => d.setBook('BTCUSDT', book),
    setBalance: (asset, free, locked) => d.setBalance(asset, free, locked),
    refuseNextOrder: () => d.refuseNextOrder(-2010, 'Account has insufficient balance for requested action.'),
    dropAfterNextOrder: () => d.dropAfterNextOrder(),
    ordersWithClientId: (cid) => d.orders.filter((o) => o.clientOrderId === cid),
    setDepositAddress: (coin, network, address) => d.setDepositAddress(coin, network, address),
    addDeposit: (x) => d.addDeposit({ coin: x.coin, network: x.network, amount: x.amount, txId: x.txId, status: x.completed ? 1 : 0 }),
    completeDeposit: (txId) => d.completeDeposit(txId),
    fail: (path, fault, times, method) => d.fail(path, fault, times, method),
    clearFaults: () => d.clearFaults(),
    close: () => d.close(),
  };
}

export function startExchangeDouble(exchange: (typeof EXCHANGES)[number]): Promise<ExchangeDouble> {
  if (exchange === 'kraken') return startKrakenDouble();
  if (exchange === 'okx') return startOkxDouble();
  if (exchange === 'coinbase') return startCoinbaseDouble();
  return binanceAsExchangeDouble();
}
