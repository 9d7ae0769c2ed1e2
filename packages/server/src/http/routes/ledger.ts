import { LedgerEntry, LedgerQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Store } from '../../store/index.ts';
import { ok } from '../envelope.ts';
import { createdWindow, pageParams } from '../page-params.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, listResponses } from '../schemas.ts';

export const ledgerRoutes = (store: Store): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/ledger', {
    config: { scope: 'portal:read' },
    schema: { tags: ['ledger'], summary: 'Movements of the organization\'s accounts, newest first', security: apiKeySecurity, querystring: LedgerQuery, response: listResponses(LedgerEntry) },
  }, async (req) => {
    const page = await store.accounts.postings(principalOf(req).organization.id, pageParams(req.query), { assetSymbol: req.query.assetSymbol, ...createdWindow(req.query) });
    return ok(req.id, page.items.map((p) => ({
      id: p.id, entryId: p.entryId, kind: p.kind, account: p.account, assetSymbol: p.assetSymbol, assetDecimals: p.assetDecimals,
      amountMinor: p.amount.toString(), referenceId: p.referenceId, memo: p.memo, createdAt: p.createdAt.toISOString(),
    })), page.pagination);
  });
};
