import { TradablePair } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { quotableRange } from '../../domain/quotes/pricing.ts';
import { ok } from '../envelope.ts';
import { apiKeySecurity, listResponses } from '../schemas.ts';

/**
 * GET /market/pairs: what can be traded now, so a client stops guessing amount bounds.
 *
 * What is shown, and why no more: the decimals of both sides and the base amounts a quote accepts,
 * which are exactly the bounds a refused quote states (quotes.amount_out_of_range); a pair that no
 * amount could be quoted on is left out. The mid rate, spread, fee and fixed fee are the operator's
 * margin: a quote shows only their result (its rate), so they are never listed, and neither is a
 * rate, which a quote gives with its expiry and which would otherwise be read as a held price.
 * Same scopes as POST /quotes (read or trade): a key that may quote may see what it can quote.
 */
export const marketRoutes =
  ({ store }: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/market/pairs',
      {
        config: { scope: ['portal:trade', 'portal:read'] },
        schema: {
          tags: ['market'],
          summary: 'The pairs priced now, with the base amounts a quote accepts and the decimals of both sides',
          operationId: 'getMarketPairs',
          security: apiKeySecurity,
          response: listResponses(TradablePair),
        },
      },
      async (req) => {
        const pairs = (await store.marketPairs.list()).flatMap((p) => {
          // A venue-priced pair's bounds are its terms' (the book decides each quote within them).
          const range = p.terms.venue
            ? { min: p.terms.minBaseMinor, max: p.terms.maxBaseMinor }
            : quotableRange(p.terms, { base: p.base.decimals, quote: p.quote.decimals });
          return range
            ? [
                {
                  baseSymbol: p.base.symbol,
                  quoteSymbol: p.quote.symbol,
                  baseDecimals: p.base.decimals,
                  quoteDecimals: p.quote.decimals,
                  minBaseMinor: range.min.toString(),
                  maxBaseMinor: range.max.toString(),
                },
              ]
            : [];
        });
        return ok(req.id, pairs);
      },
    );
  };
