import { Readable } from 'node:stream';
import { ErrorEnvelope, LedgerCsvQuery, LedgerEntry, LedgerQuery } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Store } from '../../store/index.ts';
import type { PostingRow } from '../../store/accounts-store.ts';
import { showPostingId } from '../../domain/opaque-ids.ts';
import { ledgerCsv } from '../csv/ledger-csv.ts';
import { ok } from '../envelope.ts';
import { createdWindow, pageParams } from '../page-params.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, listResponses } from '../schemas.ts';

/** Rows read from the store at a time while a CSV export streams. */
export const CSV_BATCH = 500;

export const ledgerRoutes =
  (store: Store, secret: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/ledger',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags: ['ledger'],
          summary: "Movements of the organization's accounts, newest first",
          security: apiKeySecurity,
          querystring: LedgerQuery,
          response: listResponses(LedgerEntry),
        },
      },
      async (req) => {
        const page = await store.accounts.postings(principalOf(req).organization.id, pageParams(req.query), {
          assetSymbol: req.query.assetSymbol,
          ...createdWindow(req.query),
        });
        return ok(
          req.id,
          page.items.map((p) => ({
            id: showPostingId(secret, p.id),
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

    // A separate path, not content negotiation on /ledger: the spec says every answer of /ledger is the
    // envelope, and a file cannot be one. Errors before the first byte are still the envelope.
    app.get(
      '/ledger.csv',
      {
        config: { scope: 'portal:read' },
        schema: {
          tags: ['ledger'],
          operationId: 'getLedgerCsv',
          security: apiKeySecurity,
          querystring: LedgerCsvQuery,
          summary: 'The whole ledger (same filters as the list) as an RFC 4180 CSV file for accountants, oldest first, streamed',
          response: {
            200: { description: 'text/csv; header row, then one record per posting', content: { 'text/csv': { schema: Type.String() } } },
            '4xx': ErrorEnvelope,
            '5xx': ErrorEnvelope,
          },
        },
      },
      async (req, reply) => {
        const org = principalOf(req).organization;
        const batches = store.accounts.allPostings(org.id, { assetSymbol: req.query.assetSymbol, ...createdWindow(req.query) }, CSV_BATCH);
        // The first batch is read before the status is sent, so a store that cannot answer is a 503 envelope, not a cut file.
        const first = await batches.next();
        async function* all(): AsyncGenerator<PostingRow[], void, undefined> {
          if (first.done) return;
          // Posting ids as the list shows them (opaque: domain/opaque-ids.ts).
          const shown = (rows: PostingRow[]) => rows.map((p) => ({ ...p, id: showPostingId(secret, p.id) }));
          yield shown(first.value);
          for await (const rows of batches) yield shown(rows);
        }
        const day = new Date().toISOString().slice(0, 10);
        // The type provider types the payload from the schema (text); Fastify streams a Readable as it is.
        const file = Readable.from(ledgerCsv(all())) as unknown as string;
        return reply
          .type('text/csv; charset=utf-8; header=present')
          .header('content-disposition', `attachment; filename="ledger-${org.id}-${day}.csv"`)
          .send(file);
      },
    );
  };
