import { MarketPairRecord, PutMarketPair } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { parsePairTerms } from '../../domain/market/pair-terms.ts';
import { toMinor } from '../../domain/money.ts';
import { offeredRate } from '../../domain/quotes/pricing.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import type { PricedPair } from '../../store/market-pairs-store.ts';
import { deletePair } from '../../usecases/market/delete-pair.ts';
import { putPair } from '../../usecases/market/put-pair.ts';

const sec = [{ operator: [] }];
const SymbolParam = Type.String({ pattern: '^[A-Z0-9]{2,12}$' });
const PairParams = Type.Object({ base: SymbolParam, quote: SymbolParam });

const pairWire = (p: PricedPair) => ({
  baseSymbol: p.base.symbol,
  quoteSymbol: p.quote.symbol,
  baseDecimals: p.base.decimals,
  quoteDecimals: p.quote.decimals,
  midRate: p.terms.midRateText,
  ...(p.terms.venue ? { source: 'venue' as const, venueSymbol: p.terms.venue.symbol, maxBookAgeMs: p.terms.venue.maxBookAgeMs } : {}),
  spreadBps: p.terms.spreadBps,
  feeBps: p.terms.feeBps,
  fixedFeeQuoteMinor: p.terms.fixedFeeQuoteMinor.toString(),
  minBaseMinor: p.terms.minBaseMinor.toString(),
  maxBaseMinor: p.terms.maxBaseMinor.toString(),
  // A venue-priced pair has no one rate: each quote walks the book for its amount.
  rateQuoteMinor: p.terms.venue ? '0' : offeredRate(p.terms, p.quote.decimals).toString(),
  updatedAt: p.updatedAt.toISOString(),
});

const amount = (v: unknown, field: string): bigint => {
  const m = toMinor(v);
  if (m === null) throw new DomainError('request.invalid_amount', { field });
  return m;
};

/** The pairs the simulated market prices (docs/operator-guide.md): a priced pair can be quoted and its orders executed. */
export const marketPairRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, venue } = deps;
    const tags = ['operator: market'];
    app.put(
      '/market/pairs/:base/:quote',
      {
        schema: {
          tags,
          security: sec,
          params: PairParams,
          body: PutMarketPair,
          response: responses(200, MarketPairRecord),
          summary:
            "Prices a pair by midRate (docs/design/money-and-states.md) or from the venue's order book (source venue, docs/market.md); both assets must be listed",
        },
      },
      async (req) => {
        const b = req.body;
        const terms = parsePairTerms(req.params.base, req.params.quote, {
          midRate: b.midRate,
          source: b.source,
          venueSymbol: b.venueSymbol,
          maxBookAgeMs: b.maxBookAgeMs,
          spreadBps: b.spreadBps,
          feeBps: b.feeBps,
          fixedFeeQuoteMinor: amount(b.fixedFeeQuoteMinor, 'fixedFeeQuoteMinor'),
          minBaseMinor: amount(b.minBaseMinor, 'minBaseMinor'),
          maxBaseMinor: amount(b.maxBaseMinor, 'maxBaseMinor'),
        });
        if (terms.venue) {
          // Only a venue that reads books can price from one, and it must trade exactly this pair's two assets.
          if (!venue.marketData)
            throw new DomainError('market.invalid_pair', {
              detail:
                'this instance reads no venue order book: "source": "venue" needs CAMBIO_MODE=production with CAMBIO_VENUE=ccxt:<exchange>',
            });
          await venue.marketData.checkPair(req.params.base, req.params.quote, terms.venue.symbol);
        }
        return ok(req.id, pairWire(await putPair(deps, req.operatorActor!, req.params.base, req.params.quote, terms)));
      },
    );

    app.delete(
      '/market/pairs/:base/:quote',
      {
        schema: {
          tags,
          security: sec,
          params: PairParams,
          response: responses(200, MarketPairRecord),
          summary: 'No price for the pair any more; answers the pair as it was',
        },
      },
      async (req) => ok(req.id, pairWire(await deletePair(deps, req.operatorActor!, req.params.base, req.params.quote))),
    );

    app.get('/market/pairs', { schema: { tags, security: sec, response: listResponses(MarketPairRecord) } }, async (req) =>
      ok(req.id, (await store.marketPairs.list()).map(pairWire)),
    );
  };
