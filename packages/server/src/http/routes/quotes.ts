import { CreateQuote, Quote } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import type { Quote as QuoteModel } from '../../domain/quotes/quote.ts';
import { QuoteIds } from '../../domain/quotes/quote-id.ts';
import { DomainError } from '../../domain/errors.ts';
import { ok } from '../envelope.ts';
import { answerByRef } from '../plugins/answer-by-reference.ts';
import { requestQuote } from '../../usecases/quotes/request-quote.ts';
import { quoteWire } from '../wire/quotes.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, IdParam, responses } from '../schemas.ts';

/**
 * POST /quotes: a price held until expiresAt (CAMBIO_QUOTE_TTL_MS). It commits to nothing and moves
 * nothing, so it works while the organization cannot operate and while not reconciled (docs/design/money-and-states.md).
 */
export const quoteRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const quoting = { ...deps, quoteIds: new QuoteIds(deps.secret, deps.ids), ttlMs: deps.config.quoteTtlMs };
    // A keyed quote's answer is kept by reference to the quote, in the transaction that writes it. A quote
    // never changes once written, and one a kept answer names outlives the answer (QUOTE_RETENTION_MS).
    const answers = answerByRef(
      201,
      (q: QuoteModel) => quoteWire(q),
      (id, req) => deps.store.quotes.get(principalOf(req).organization.id, id),
    );
    app.get(
      '/quotes/:id',
      {
        config: { scope: ['portal:trade', 'portal:read'] },
        schema: {
          tags: ['quotes'],
          summary: 'One quote of the organization (until some time after it expired)',
          operationId: 'getQuote',
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, Quote),
        },
      },
      async (req) => {
        const q = await deps.store.quotes.get(principalOf(req).organization.id, req.params.id);
        if (!q) throw new DomainError('orders.quote_not_found');
        return ok(req.id, quoteWire(q));
      },
    );

    app.post(
      '/quotes',
      {
        config: { scope: ['portal:trade', 'portal:read'], answerByRef: answers.config },
        schema: {
          tags: ['quotes'],
          summary: 'Price an exchange: deliver baseSymbol, receive quoteSymbol; send exactly one amount',
          security: apiKeySecurity,
          body: CreateQuote,
          response: responses(201, Quote),
        },
      },
      async (req, reply) => {
        const org = principalOf(req).organization;
        return answers.send(req, reply, await requestQuote(quoting, org, req.body));
      },
    );
  };
