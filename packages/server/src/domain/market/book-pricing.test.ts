import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DomainError } from '../errors.ts';
import { priceFromBook, walkBook, type BookQuoteInput, type OrderBook } from './book-pricing.ts';
import { readDecimal as d } from './decimal-text.ts';

// Expected figures were worked with exact fractions (Python's Fraction) from docs/market.md.
const book: OrderBook = {
  bids: [
    { price: d('65000'), qty: d('0.5') },
    { price: d('64990'), qty: d('1.0') },
    { price: d('64900'), qty: d('2') },
  ],
  asks: [
    { price: d('65010'), qty: d('0.5') },
    { price: d('65020'), qty: d('1.0') },
  ],
};
const rules = { baseStep: d('0.00001'), minBaseQty: d('0.00001'), quoteStep: d('0.01'), minNotional: d('5') };
// BTC(8)/USDT(2): the platform sells BTC into the bids.
const sell: BookQuoteInput = {
  book,
  side: 'sell',
  rules,
  decimals: { base: 8, quote: 2 },
  baseSymbol: 'BTC',
  venueQuoteSymbol: 'USDT',
  terms: { spreadBps: 50, feeBps: 10, fixedFeeQuoteMinor: 100n, minBaseMinor: 10_000n, maxBaseMinor: 500_000_000n },
};
// USDT(2)/BTC(8): the platform spends USDT on the asks.
const buy: BookQuoteInput = {
  book,
  side: 'buy',
  rules,
  decimals: { base: 2, quote: 8 },
  baseSymbol: 'USDT',
  venueQuoteSymbol: 'USDT',
  terms: { spreadBps: 50, feeBps: 10, fixedFeeQuoteMinor: 1_000n, minBaseMinor: 100n, maxBaseMinor: 10_000_000n },
};
const refused = (code: string, message?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof DomainError);
  assert.equal(e.code, code);
  if (message) assert.match(e.params.bound ?? '', message);
  return true;
};

describe("pricing from the venue's book (docs/market.md)", () => {
  test('selling 1 BTC walks two bids: vwap 64995, spread, fee and fixed fee exact', () => {
    // gross = 0.5×65000 + 0.5×64990 = 64995; rate = floor(64995 × 0.995 × 100) = 6467002;
    // proceeds = floor(64995 × 0.999 × 100) − 100 = 6492900.
    assert.deepEqual(priceFromBook(sell, { base: 100_000_000n }), {
      rateQuoteMinor: 6_467_002n,
      amountBaseMinor: 100_000_000n,
      amountQuoteMinor: 6_467_002n,
      proceedsQuoteMinor: 6_492_900n,
    });
    // 1.2 BTC reaches a lower level: vwap (32500 + 45493) / 1.2.
    assert.deepEqual(priceFromBook(sell, { base: 120_000_000n }), {
      rateQuoteMinor: 6_466_919n,
      amountBaseMinor: 120_000_000n,
      amountQuoteMinor: 7_760_302n,
      proceedsQuoteMinor: 7_791_400n,
    });
  });

  test("selling by the amount to receive: the smallest amount on the venue's step grid that reaches it", () => {
    assert.deepEqual(priceFromBook(sell, { quote: 5_000_000n }), {
      rateQuoteMinor: 6_467_148n,
      amountBaseMinor: 77_314_000n,
      amountQuoteMinor: 5_000_010n,
      proceedsQuoteMinor: 5_020_011n,
    });
    // One step less does not reach it.
    assert.ok(priceFromBook(sell, { base: 77_313_000n }).amountQuoteMinor < 5_000_000n);
  });

  test('buying with USDT walks the asks, mirrored', () => {
    // 10000 USDT at 65010: gross = 10000/65010 BTC; rate = floor(gross/10000 × 0.995 × 10^8) = 1530.
    assert.deepEqual(priceFromBook(buy, { base: 1_000_000n }), {
      rateQuoteMinor: 1_530n,
      amountBaseMinor: 1_000_000n,
      amountQuoteMinor: 15_300_000n,
      proceedsQuoteMinor: 15_365_866n,
    });
    // 40000 USDT takes the first ask (32505 USDT) and part of the second.
    assert.deepEqual(priceFromBook(buy, { base: 4_000_000n }), {
      rateQuoteMinor: 1_530n,
      amountBaseMinor: 4_000_000n,
      amountQuoteMinor: 61_200_000n,
      proceedsQuoteMinor: 61_464_695n,
    });
    assert.deepEqual(priceFromBook(buy, { quote: 20_000_000n }), {
      rateQuoteMinor: 1_530n,
      amountBaseMinor: 1_307_190n,
      amountQuoteMinor: 20_000_007n,
      proceedsQuoteMinor: 20_086_414n,
    });
  });

  test('a book that cannot fill the amount is amount_out_of_range, saying so', () => {
    assert.equal(walkBook(book, 'sell', d('3.5')) !== null, true);
    assert.equal(walkBook(book, 'sell', d('3.50001')), null);
    assert.throws(() => priceFromBook(sell, { base: 350_001_000n }), refused('quotes.amount_out_of_range', /order book cannot fill/));
    assert.throws(() => priceFromBook(buy, { base: 9_999_999n }), refused('quotes.amount_out_of_range', /order book cannot fill/));
  });

  test("the venue's step, minimum quantity and minimum notional are refused at quote time, naming the bound", () => {
    assert.throws(() => priceFromBook(sell, { base: 100_000_001n }), refused('quotes.amount_out_of_range', /steps of 0\.00001 BTC/));
    const strict = { ...sell, rules: { ...rules, minNotional: d('10') } };
    // 0.0001 BTC is worth 6.5 USDT: below a 10 USDT minimum order.
    assert.throws(() => priceFromBook(strict, { base: 10_000n }), refused('quotes.amount_out_of_range', /smallest order is worth 10 USDT/));
    assert.throws(
      () => priceFromBook({ ...buy, terms: { ...buy.terms, minBaseMinor: 1n } }, { base: 499n }),
      refused('quotes.amount_out_of_range', /smallest order is worth 5 USDT/),
    );
    // The pair's own range still applies, with no bound added.
    assert.throws(() => priceFromBook(sell, { base: 9_000n }), refused('quotes.amount_out_of_range', /^$/));
  });

  test('a quote above what the venue would pay is below the executable rate', () => {
    const costly = { ...sell, terms: { ...sell.terms, fixedFeeQuoteMinor: 30_000n } }; // 300 USDT fixed fee > the 0.5% spread on 1 BTC
    assert.throws(() => priceFromBook(costly, { base: 100_000_000n }), refused('quotes.quote_below_executable_rate'));
  });
});
