import { CreateQuote, Quote } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { quoteExpiry, type Quote as QuoteModel } from '../../domain/quotes/quote.ts';
import { QuoteIds } from '../../domain/quotes/quote-id.ts';
import { oneAmount, priceAtMarket } from '../../domain/quotes/request-quote.ts';
import { DomainError } from '../../domain/errors.ts';
import { ok } from '../envelope.ts';
import { answerByRef } from '../plugins/answer-in-work.ts';
import { quoteWire } from '../wire/quotes.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, IdParam, responses } from '../schemas.ts';


/**
 * POST /quotes: a price held until expiresAt (CAMBIO_QUOTE_TTL_MS). It commits to nothing and moves
 * nothing, so it works while the organization cannot operate and while not reconciled (CONTRACT §6).
 */
export const quoteRoutes = (deps: AppDeps): FastifyPluginAsyncTypebox => async (app) => {
  const market = deps.venue;
  const quoteIds = new QuoteIds(deps.secret, deps.ids);
  // A keyed quote's answer is kept by reference to the quote, in the statement that writes it. A quote
  // never changes once written, and one a kept answer names outlives the answer (QUOTE_RETENTION_MS).
  const answers = answerByRef(201, (q: QuoteModel) => quoteWire(q), (id, req) => deps.store.quotes.get(principalOf(req).organization.id, id));
  app.get('/quotes/:id', {
    config: { scope: ['portal:trade', 'portal:read'] },
    schema: { tags: ['quotes'], summary: 'One quote of the organization (until some time after it expired)', operationId: 'getQuote', security: apiKeySecurity, params: IdParam, response: responses(200, Quote) },
  }, async (req) => {
    const q = await deps.store.quotes.get(principalOf(req).organization.id, req.params.id);
    if (!q) throw new DomainError('orders.quote_not_found');
    return ok(req.id, quoteWire(q));
  });

  app.post('/quotes', {
    // A keyed quote's key is claimed by the statement that writes the quote (on PostgreSQL): no round trip of its own.
    config: { scope: ['portal:trade', 'portal:read'], replayRef: answers.replay, claimInWork: true },
    schema: {
      tags: ['quotes'], summary: 'Price an exchange: deliver baseSymbol, receive quoteSymbol; send exactly one amount',
      security: apiKeySecurity, body: CreateQuote, response: responses(201, Quote),
    },
  }, async (req, reply) => {
    const org = principalOf(req).organization;
    const answer = answers.inWork(req, reply);
    let quote: QuoteModel;
    try {
      const amount = oneAmount(req.body.amountBaseMinor, req.body.amountQuoteMinor);
      const { pair, priced } = await priceAtMarket(market, req.body.baseSymbol, req.body.quoteSymbol, amount);
      const now = deps.clock.now();
      const expiresAt = quoteExpiry(now, deps.config.quoteTtlMs);
      quote = {
        id: quoteIds.next(org.id, expiresAt), organizationId: org.id,
        baseSymbol: pair.base.symbol, baseDecimals: pair.base.decimals, quoteSymbol: pair.quote.symbol, quoteDecimals: pair.quote.decimals,
        rateQuoteMinor: priced.rateQuoteMinor, amountBaseMinor: priced.amountBaseMinor, amountQuoteMinor: priced.amountQuoteMinor,
        expiresAt, createdAt: now,
      };
    } catch (e) {
      // Refused before its work: the key's own answer first (a replay, 409, 422), else this refusal is kept.
      if (await answer.refusing()) return reply;
      throw e;
    }
    await deps.store.quotes.create(quote, answer.keep);
    return answer.send(quote);
  });
};
