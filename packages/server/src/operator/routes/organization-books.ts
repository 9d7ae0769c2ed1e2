import { Balance, ClientStatus, LedgerEntry, ListQuery, OrganizationRecord, PageQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { ok } from '../../http/envelope.ts';
import { pageParams } from '../../http/page-params.ts';
import { listResponses } from '../../http/schemas.ts';
import { searchOrganizations } from '../../store/organization-search.ts';
import { orgWire } from '../../http/wire/organizations.ts';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const sec = [{ operator: [] }];

const OrganizationsQuery = ListQuery({
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  status: Type.Optional(ClientStatus),
});

/**
 * What the desk reads about organizations (any staff role): the list with its search, and one
 * organization's books, the balances and the ledger its members see on /api/v1.
 */
export const organizationBookRoutes =
  ({ store }: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['operator: organizations'];
    const known = async (id: string) => {
      if (!(await store.organizations.get(id))) throw new DomainError('organizations.not_found');
    };

    app.get(
      '/organizations',
      {
        schema: {
          tags,
          security: sec,
          querystring: OrganizationsQuery,
          response: listResponses(OrganizationRecord),
          summary: 'Organizations, newest first; ?search= matches a part of the name or the whole id, ?status= filters',
        },
      },
      async (req) => {
        const page = await searchOrganizations(store.db, pageParams(req.query), {
          ...(req.query.search ? { search: req.query.search } : {}),
          ...(req.query.status ? { status: req.query.status } : {}),
        });
        return ok(req.id, page.items.map(orgWire), page.pagination);
      },
    );

    app.get(
      '/organizations/:id/balances',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          response: listResponses(Balance),
          summary: "The organization's balances per asset: available (amountMinor), held and total",
        },
      },
      async (req) => {
        await known(req.params.id);
        const rows = await store.accounts.balances(req.params.id);
        return ok(
          req.id,
          rows.map((b) => ({
            assetSymbol: b.assetSymbol,
            assetDecimals: b.assetDecimals,
            amountMinor: b.available.toString(),
            heldMinor: b.held.toString(),
            totalMinor: (b.available + b.held).toString(),
          })),
        );
      },
    );

    app.get(
      '/organizations/:id/ledger',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          querystring: PageQuery,
          response: listResponses(LedgerEntry),
          summary: "The organization's ledger, newest first, paged as the client sees it",
        },
      },
      async (req) => {
        await known(req.params.id);
        const page = await store.accounts.postings(req.params.id, pageParams(req.query));
        return ok(
          req.id,
          page.items.map((p) => ({
            id: p.id,
            entryId: p.entryId,
            kind: p.kind,
            account: p.account,
            assetSymbol: p.assetSymbol,
            assetDecimals: p.assetDecimals,
            amountMinor: p.amount.toString(),
            referenceId: p.referenceId,
            memo: p.memo,
            createdAt: p.createdAt.toISOString(),
            logIndex: p.logIndex ?? null,
          })),
          page.pagination,
        );
      },
    );
  };
