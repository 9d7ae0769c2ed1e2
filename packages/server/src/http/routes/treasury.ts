import { BalanceHistory, BalanceHistoryQuery, ErrorEnvelope, StatementQuery, Valuation } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../envelope.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, responses } from '../schemas.ts';
import { readHistory, readReporting, readStatement, readValuation } from '../treasury/reads.ts';
import { sendStatement, statementFormat, statementLang } from '../treasury/statement-file.ts';

const StatementParams = Type.Object({
  assetSymbol: Type.String({ minLength: 1, maxLength: 20 }),
  month: Type.String({ minLength: 1, maxLength: 20, description: 'YYYY-MM (UTC), the current month or an earlier one' }),
});

/**
 * What a treasurer reads about the organization's money (docs/api-guide.md, Valuation and statements):
 * the estimated value of its balances in its reporting currency, each asset's daily closing balance,
 * and a month's statement of one asset as a file. Reading scope, like balances and the ledger.
 */
export const treasuryRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['treasury'];
    app.get(
      '/valuation',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags,
          summary:
            "Each balance (available + held) and its estimated value in the organization's reporting currency, at the rate a quote gives now",
          operationId: 'getValuation',
          security: apiKeySecurity,
          response: responses(200, Valuation),
        },
      },
      async (req) => ok(req.id, await readValuation(deps, principalOf(req).organization.id)),
    );

    app.get(
      '/balances/history',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags,
          summary: 'The closing total (available + held) of each asset at the end of each of the last days (UTC), from the ledger',
          operationId: 'getBalanceHistory',
          security: apiKeySecurity,
          querystring: BalanceHistoryQuery,
          response: responses(200, BalanceHistory),
        },
      },
      async (req) => ok(req.id, await readHistory(deps, principalOf(req).organization.id, req.query.days ?? 30)),
    );

    app.get(
      '/statements/:assetSymbol/:month',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags,
          summary:
            "A month's statement of one asset: opening balance, every entry with its running balance, closing balance; CSV or PDF (?format= or Accept), in the organization's language",
          operationId: 'getStatement',
          security: apiKeySecurity,
          params: StatementParams,
          querystring: StatementQuery,
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
        const orgId = principalOf(req).organization.id;
        const statement = await readStatement(deps, orgId, req.params.assetSymbol, req.params.month);
        const lang = statementLang(req.query.lang, (await readReporting(deps, orgId)).language, req.lang);
        return sendStatement(reply, statement, statementFormat(req.query.format, req.headers.accept), lang);
      },
    );
  };
