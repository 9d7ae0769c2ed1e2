import { VenueBookLevels, VenueBookQuery, VenueExecution, VenueExecutionQuery, VenueMarketListing, VenueView } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import type { VenueStatus } from '../../usecases/ports.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses, responses } from '../../http/schemas.ts';

const sec = [{ operator: [] }];

/**
 * The market behind production as the desk watches it (docs/market.md): per venue pair the held book's
 * age and best levels, the venue's health and last error, and the orders sent there with the venue's
 * figures, and the markets the venue trades. Under a venue without these capabilities (the desk, the
 * simulated venue) there are no books, no venue orders and no venue markets to show.
 */
export const venueRoutes =
  ({ venue, store }: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['operator: market'];
    app.get(
      '/venue',
      {
        schema: {
          tags,
          security: sec,
          response: responses(200, VenueView),
          summary: 'The venue: health, last error, orders awaiting an outcome, and the book behind each venue-priced pair',
        },
      },
      async (req) => {
        if (venue.status) {
          const { venues, ...v } = await venue.status();
          const times = (x: VenueStatus) => ({
            lastSuccessAt: x.lastSuccessAt?.toISOString() ?? null,
            lastError: x.lastError ? { ...x.lastError, at: x.lastError.at.toISOString() } : null,
          });
          return ok(req.id, {
            kind: venue.kind,
            ...v,
            ...times(v),
            ...(venues ? { venues: venues.map(({ venues: _, ...x }) => ({ ...x, ...times(x) })) } : {}),
          } as const);
        }
        const kind: 'desk' | 'simulated' = venue.kind === 'desk' ? 'desk' : 'simulated';
        const pairs = (await store.marketPairs.list()).filter((p) => p.terms.venue);
        return ok(req.id, {
          kind,
          exchange: null,
          health: 'idle' as const,
          lastSuccessAt: null,
          lastError: null,
          errors: [] as Array<{ kind: string; count: number }>,
          awaitingOutcome: 0,
          partialFills: 0,
          pairs: pairs.map((p) => ({
            baseSymbol: p.base.symbol,
            quoteSymbol: p.quote.symbol,
            venueSymbol: p.terms.venue!.symbol,
            maxBookAgeMs: p.terms.venue!.maxBookAgeMs,
            bookAgeMs: null,
            fresh: false,
            bestBid: null,
            bestBidQty: null,
            bestAsk: null,
            bestAskQty: null,
          })),
        });
      },
    );

    app.get(
      '/venue/executions',
      {
        schema: {
          tags,
          security: sec,
          querystring: VenueExecutionQuery,
          response: listResponses(VenueExecution),
          summary: "Orders sent to the venue, newest first, with the venue's order id and figures",
        },
      },
      async (req) => {
        if (!venue.executions) return ok(req.id, []);
        const rows = await venue.executions.list({ state: req.query.state, limit: req.query.limit ?? 50 });
        return ok(
          req.id,
          rows.map((r) => ({
            orderId: r.orderId,
            organizationId: r.organizationId,
            orderState: r.orderState,
            venue: r.venue,
            venueSymbol: r.venueSymbol,
            side: r.side,
            amountSent: r.amountText,
            state: r.state,
            attempts: r.attempts,
            venueOrderId: r.venueOrderId,
            executedQty: r.executedQty,
            quoteQty: r.quoteQty,
            baseSymbol: r.baseSymbol,
            quoteSymbol: r.quoteSymbol,
            quoteDecimals: r.quoteDecimals,
            owedQuoteMinor: r.owedQuoteMinor.toString(),
            proceedsQuoteMinor: r.proceedsQuoteMinor === null ? null : r.proceedsQuoteMinor.toString(),
            reason: r.reason,
            sentAt: r.sentAt?.toISOString() ?? null,
            updatedAt: r.updatedAt.toISOString(),
          })),
        );
      },
    );

    app.get(
      '/venue/markets',
      {
        schema: {
          tags,
          security: sec,
          response: listResponses(VenueMarketListing),
          summary:
            'The spot markets the venue trades, by symbol, with their amount and price steps as decimal text; empty under a venue without market data (docs/market.md)',
        },
      },
      async (req) => {
        if (!venue.marketData) return ok(req.id, []);
        const markets = await venue.marketData.markets();
        return ok(
          req.id,
          markets.map((m) => ({
            symbol: m.symbol,
            baseSymbol: m.baseSymbol,
            quoteSymbol: m.quoteSymbol,
            amountStep: m.amountStep,
            priceStep: m.priceStep,
            ...(m.minNotional === null ? {} : { minNotional: m.minNotional }),
          })),
        );
      },
    );

    app.get(
      '/venue/markets/book',
      {
        schema: {
          tags,
          security: sec,
          querystring: VenueBookQuery,
          response: listResponses(VenueBookLevels),
          summary:
            "The best levels of one venue market's book at each connected venue trading it, read now when none is held (docs/market.md); empty under a venue without market data",
        },
      },
      async (req) => {
        if (!venue.marketData) return ok(req.id, []);
        return ok(req.id, await venue.marketData.bestLevels(req.query.symbol));
      },
    );
  };
