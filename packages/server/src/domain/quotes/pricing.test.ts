import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { DomainError } from '../errors.ts';
import { parsePairTerms, type PairTerms } from '../market/pair-terms.ts';
import { baseForQuote, offeredRate, priceQuote, quoteForBase, venueProceeds } from './pricing.ts';

// Expected figures were worked by hand from docs/design/money-and-states.md and checked with exact fractions (Python's Fraction).
const terms = (midRate: string, spreadBps: number, feeBps: number, fixed: bigint, min = 1n, max = 10n ** 30n): PairTerms =>
  parsePairTerms('AAA', 'BBB', { midRate, spreadBps, feeBps, fixedFeeQuoteMinor: fixed, minBaseMinor: min, maxBaseMinor: max });
const refusedWith = (code: string, params?: Record<string, string>) => (e: unknown) => {
  assert.ok(e instanceof DomainError);
  assert.equal(e.code, code);
  if (params) assert.deepEqual(e.params, params);
  return true;
};

describe('pricing (docs/design/money-and-states.md)', () => {
  const btcUsd = terms('65000.00', 50, 10, 100n, 10_000n, 1_000_000_000n);
  const d8to2 = { base: 8, quote: 2 };

  test('BTC(8)/USD(2) given the base amount: rate, quote amount and venue proceeds', () => {
    // rate = floor(65000 × 0.995 × 100) = 6467500; q = floor(1000000 × 6467500 / 10^8) = 64675;
    // proceeds = floor(1000000 × 65000 × 0.999 × 100 / 10^8) − 100 = 64935 − 100 = 64835.
    assert.deepEqual(priceQuote(btcUsd, d8to2, { base: 1_000_000n }), {
      rateQuoteMinor: 6_467_500n,
      amountBaseMinor: 1_000_000n,
      amountQuoteMinor: 64_675n,
      proceedsQuoteMinor: 64_835n,
    });
  });

  test('BTC(8)/USD(2) given the quote amount: the smallest base amount that reaches it', () => {
    // exact: 64675 needs exactly 0.01 BTC
    assert.deepEqual(priceQuote(btcUsd, d8to2, { quote: 64_675n }), {
      rateQuoteMinor: 6_467_500n,
      amountBaseMinor: 1_000_000n,
      amountQuoteMinor: 64_675n,
      proceedsQuoteMinor: 64_835n,
    });
    // one cent more: a = ceil(64676 × 10^8 / 6467500) = 1000016 (1000015 would give 64675.97 → 64675)
    const r = priceQuote(btcUsd, d8to2, { quote: 64_676n });
    assert.equal(r.amountBaseMinor, 1_000_016n);
    assert.equal(r.amountQuoteMinor, 64_676n);
    assert.equal(quoteForBase(1_000_015n, 6_467_500n, 8), 64_675n);
  });

  test('the fixed fee makes small amounts non-executable, exactly at the edge', () => {
    // a = 380827: q = 24629 = proceeds (accepted); a = 380826: q = 24629 > proceeds 24628 (refused)
    assert.deepEqual(priceQuote(btcUsd, d8to2, { base: 380_827n }), {
      rateQuoteMinor: 6_467_500n,
      amountBaseMinor: 380_827n,
      amountQuoteMinor: 24_629n,
      proceedsQuoteMinor: 24_629n,
    });
    assert.throws(() => priceQuote(btcUsd, d8to2, { base: 380_826n }), refusedWith('quotes.quote_below_executable_rate'));
    assert.throws(() => priceQuote(btcUsd, d8to2, { base: 10_000n }), refusedWith('quotes.quote_below_executable_rate'));
  });

  test('range edges: min and max are inclusive; one outside is amount_out_of_range', () => {
    const wide = terms('65000.00', 50, 10, 0n, 10_000n, 1_000_000_000n);
    assert.equal(priceQuote(wide, d8to2, { base: 10_000n }).amountQuoteMinor, 646n);
    assert.equal(priceQuote(wide, d8to2, { base: 1_000_000_000n }).amountQuoteMinor, 64_675_000n);
    assert.throws(
      () => priceQuote(wide, d8to2, { base: 9_999n }),
      refusedWith('quotes.amount_out_of_range', {
        min: '10000',
        max: '1000000000',
        asset: '',
        minUnits: '0.0001',
        maxUnits: '10',
        bound: '',
        limite: '',
      }),
    );
    assert.throws(() => priceQuote(wide, d8to2, { base: 1_000_000_001n }), refusedWith('quotes.amount_out_of_range'));
    // a quote amount that needs more than the maximum base amount
    assert.throws(() => priceQuote(wide, d8to2, { quote: 64_675_001n }), refusedWith('quotes.amount_out_of_range'));
    assert.throws(() => priceQuote(wide, d8to2, { quote: 0n }), refusedWith('quotes.amount_out_of_range'));
    assert.throws(() => priceQuote(wide, d8to2, { base: 0n }), refusedWith('quotes.amount_out_of_range'));
  });

  test('USD(2)/JPY(0): the rate floors to whole yen; a quote amount may come back larger than asked', () => {
    const usdJpy = terms('150.123', 25, 5, 0n);
    const d = { base: 2, quote: 0 };
    // rate = floor(150.123 × 0.9975) = floor(149.747…) = 149
    assert.equal(offeredRate(usdJpy, 0), 149n);
    assert.deepEqual(priceQuote(usdJpy, d, { base: 12_345n }), {
      rateQuoteMinor: 149n,
      amountBaseMinor: 12_345n,
      amountQuoteMinor: 18_394n,
      proceedsQuoteMinor: 18_523n,
    });
    // 18 yen needs ceil(1800/149) = 13 cents, and 13 cents buy floor(13 × 149 / 100) = 19 yen
    assert.deepEqual(priceQuote(usdJpy, d, { quote: 18n }), {
      rateQuoteMinor: 149n,
      amountBaseMinor: 13n,
      amountQuoteMinor: 19n,
      proceedsQuoteMinor: 19n,
    });
    assert.deepEqual(priceQuote(usdJpy, d, { quote: 1n }), {
      rateQuoteMinor: 149n,
      amountBaseMinor: 1n,
      amountQuoteMinor: 1n,
      proceedsQuoteMinor: 1n,
    });
  });

  test('ETH(18)/USD(2) and USD(2)/ETH(18), both directions', () => {
    const ethUsd = terms('3000.5', 30, 10, 0n);
    assert.deepEqual(priceQuote(ethUsd, { base: 18, quote: 2 }, { base: 10n ** 18n }), {
      rateQuoteMinor: 299_149n,
      amountBaseMinor: 10n ** 18n,
      amountQuoteMinor: 299_149n,
      proceedsQuoteMinor: 299_749n,
    });
    // $1.00 needs ceil(100 × 10^18 / 299149) wei; the venue pays exactly $1.00 for it (the edge is accepted)
    assert.deepEqual(priceQuote(ethUsd, { base: 18, quote: 2 }, { quote: 100n }), {
      rateQuoteMinor: 299_149n,
      amountBaseMinor: 334_281_578_745_041n,
      amountQuoteMinor: 100n,
      proceedsQuoteMinor: 100n,
    });

    const usdEth = terms('0.000333277787', 30, 10, 0n);
    assert.deepEqual(priceQuote(usdEth, { base: 2, quote: 18 }, { base: 100n }), {
      rateQuoteMinor: 332_277_953_639_000n,
      amountBaseMinor: 100n,
      amountQuoteMinor: 332_277_953_639_000n,
      proceedsQuoteMinor: 332_944_509_213_000n,
    });
    assert.deepEqual(priceQuote(usdEth, { base: 2, quote: 18 }, { quote: 10n ** 15n }), {
      rateQuoteMinor: 332_277_953_639_000n,
      amountBaseMinor: 301n,
      amountQuoteMinor: 1_000_156_640_453_390n,
      proceedsQuoteMinor: 1_002_162_972_731_130n,
    });
  });

  test('18/18 decimals with a rate just above one: no precision is lost', () => {
    const t = terms('1.000000000000000001', 1, 0, 0n);
    assert.deepEqual(priceQuote(t, { base: 18, quote: 18 }, { base: 10n ** 18n + 7n }), {
      rateQuoteMinor: 999_900_000_000_000_000n,
      amountBaseMinor: 10n ** 18n + 7n,
      amountQuoteMinor: 999_900_000_000_000_006n,
      proceedsQuoteMinor: 1_000_000_000_000_000_008n,
    });
  });

  test('a rate that floors to zero has no price; an amount too small to receive anything is out of range', () => {
    assert.throws(
      () => priceQuote(terms('0.001', 50, 0, 0n), { base: 2, quote: 0 }, { base: 100_000n }),
      refusedWith('quotes.quote_below_executable_rate'),
    );
    // BTC(8)/XYZ(0) at 65000: below ceil(10^8 / 65000) = 1539 satoshi the client would receive 0
    const t = terms('65000', 0, 0, 0n, 1_000n, 10n ** 9n);
    assert.throws(
      () => priceQuote(t, { base: 8, quote: 0 }, { base: 1_538n }),
      refusedWith('quotes.amount_out_of_range', {
        min: '1539',
        max: '1000000000',
        asset: '',
        minUnits: '0.00001539',
        maxUnits: '10',
        bound: '',
        limite: '',
      }),
    );
    assert.equal(priceQuote(t, { base: 8, quote: 0 }, { base: 1_539n }).amountQuoteMinor, 1n);
  });

  test('property: the base amount found for a quote amount is the smallest that reaches it', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        fc.integer({ min: 0, max: 18 }),
        (q, rate, db) => {
          const a = baseForQuote(q, rate, db);
          assert.ok(quoteForBase(a, rate, db) >= q);
          assert.ok(a === 0n || quoteForBase(a - 1n, rate, db) < q);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('property: an accepted quote pays at least one minor unit and never more than the venue pays; refusals are domain errors', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 9_999 }),
        fc.integer({ min: 0, max: 9_999 }),
        fc.bigInt({ min: 0n, max: 10_000n }),
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 0, max: 18 }),
        (num, scale, spread, fee, fixed, a, db, dq) => {
          const t = terms(
            `${num / 10n ** BigInt(scale)}.${(num % 10n ** BigInt(scale)).toString().padStart(scale, '0')}0`,
            spread,
            fee,
            fixed,
          );
          try {
            const r = priceQuote(t, { base: db, quote: dq }, { base: a });
            assert.ok(r.amountQuoteMinor >= 1n && r.amountQuoteMinor <= venueProceeds(a, t, { base: db, quote: dq }));
          } catch (e) {
            assert.ok(e instanceof DomainError);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('pair terms', () => {
  const ok = { midRate: '1.5', spreadBps: 0, feeBps: 0, fixedFeeQuoteMinor: 0n, minBaseMinor: 1n, maxBaseMinor: 1n };
  test('refuses what cannot price', () => {
    for (const [base, quote, patch] of [
      ['USD', 'USD', {}],
      ['BTC', 'USD', { midRate: '0' }],
      ['BTC', 'USD', { midRate: '0.000' }],
      ['BTC', 'USD', { midRate: '1e5' }],
      ['BTC', 'USD', { midRate: '-1' }],
      ['BTC', 'USD', { midRate: '' }],
      ['BTC', 'USD', { spreadBps: 10_000 }],
      ['BTC', 'USD', { feeBps: -1 }],
      ['BTC', 'USD', { minBaseMinor: 0n }],
      ['BTC', 'USD', { minBaseMinor: 5n, maxBaseMinor: 4n }],
    ] as const) {
      assert.throws(
        () => parsePairTerms(base, quote, { ...ok, ...patch }),
        refusedWith('market.invalid_pair'),
        `${base}/${quote} ${JSON.stringify(patch, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
      );
    }
  });
  test('keeps the mid rate exact', () => {
    assert.deepEqual(parsePairTerms('BTC', 'USD', { ...ok, midRate: '65000.25' }).midRate, { num: 6_500_025n, den: 100n });
  });
});
