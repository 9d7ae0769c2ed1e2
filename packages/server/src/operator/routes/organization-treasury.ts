import { BalanceHistory, BalanceHistoryQuery, ErrorEnvelope, StatementQuery, Valuation } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { ok } from '../../http/envelope.ts';
import { responses } from '../../http/schemas.ts';
import { readHistory, readReporting, readStatement, readValuation } from '../../http/treasury/reads.ts';
import { sendStatement, statementFormat, statementLang } from '../../http/treasury/statement-file.ts';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const StatementParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  assetSymbol: Type.String({ minLength: 1, maxLength: 20 }),
  month: Type.String({ minLength: 1, maxLength: 20 }),
});
const sec = [{ operator: [] }];

/**
 * What the desk reads of one organization's treasury (any staff role): the same valuation, balance history
 * and statements its members read on /api/v1 (docs/api-guide.md, Valuation and statements).
 */
export const organizationTreasuryRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['operator: organizations'];
    const known = async (id: string) => {
      if (!(await deps.store.organizations.get(id))) throw new DomainError('organizations.not_found');
    };

    app.get(
      '/organizations/:id/valuation',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          response: responses(200, Valuation),
          summary: "The organization's balances and their estimated value in its reporting currency, as its members read them",
        },
      },
      async (req) => {
        await known(req.params.id);
        return ok(req.id, await readValuation(deps, req.params.id));
      },
    );

    app.get(
      '/organizations/:id/balances/history',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          querystring: BalanceHistoryQuery,
          response: responses(200, BalanceHistory),
          summary: "The organization's closing total of each asset at the end of each of the last days (UTC)",
        },
      },
      async (req) => {
        await known(req.params.id);
        return ok(req.id, await readHistory(deps, req.params.id, req.query.days ?? 30));
      },
    );

    app.get(
      '/organizations/:id/statements/:assetSymbol/:month',
      {
        schema: {
          tags,
          security: sec,
          params: StatementParams,
          querystring: StatementQuery,
          summary: "A month's statement of one asset of the organization, CSV or PDF, in the organization's language",
          response: {
            200: {
              description: 'text/csv or application/pdf',
              content: { 'text/csv': { schema: Type.String() }, 'application/pdf': { schema: Type.String({ format: 'binary' }) } },
            },
            '4xx': ErrorEnvelope,
            '5xx': ErrorEnvelope,
          },
        },
      },
      async (req, reply) => {
        await known(req.params.id);
        const statement = await readStatement(deps, req.params.id, req.params.assetSymbol, req.params.month);
        const lang = statementLang(req.query.lang, (await readReporting(deps, req.params.id)).language, req.lang);
        return sendStatement(reply, statement, statementFormat(req.query.format, req.headers.accept), lang);
      },
    );
  };
