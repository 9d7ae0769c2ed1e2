import { ReconciliationBooks, ReconciliationRunRecord, ReconciliationState, RunReconciliation } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import { marketBalancesOf, type Figure } from '../../domain/reconciliation/compare.ts';
import { ok } from '../../http/envelope.ts';
import { responses } from '../../http/schemas.ts';
import type { PlatformStateRow, RunRow } from '../../store/reconciliation-store.ts';
import { resolveReconciliation } from '../../usecases/reconciliation/resolve.ts';
import { runReconciliation } from '../../usecases/reconciliation/run-reconciliation.ts';

const sec = [{ operator: [] }];

const figureWire = (f: Figure) => ({
  assetSymbol: f.assetSymbol,
  booksMinor: f.books.toString(),
  marketMinor: f.market.toString(),
  differenceMinor: f.difference.toString(),
  matched: f.matched,
});
const runWire = (r: RunRow) => ({
  id: r.id,
  matched: r.matched,
  source: r.source,
  figures: r.figures.map(figureWire),
  actor: r.actor,
  createdAt: r.createdAt.toISOString(),
});
const stateWire = (s: PlatformStateRow) => ({
  reconciled: s.reconciled,
  changedAt: s.changedAt.toISOString(),
  stoppedByRunId: s.stoppedByRunId,
  lastRun: s.lastRun ? runWire(s.lastRun) : null,
});

/** Reconciliation (docs/operator-guide.md): compare the books with the market; a mismatch stops client money movements until resolved. */
export const reconciliationRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store } = deps;
    const tags = ['operator: reconciliation'];
    const optionalBody = async (req: { body: unknown }) => {
      req.body ??= {};
    };

    app.get('/reconciliation', { schema: { tags, security: sec, response: responses(200, ReconciliationState) } }, async (req) =>
      ok(req.id, stateWire(await store.reconciliation.state())),
    );

    app.get(
      '/reconciliation/books',
      {
        schema: {
          tags,
          security: sec,
          response: responses(200, ReconciliationBooks),
          summary:
            "What the books say the platform holds at the market, per asset, now: the desk shows a run's differences before it is sent",
        },
      },
      async (req) => {
        const books = await store.reconciliation.booksNow();
        return ok(req.id, {
          books: [...books.entries()]
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([assetSymbol, m]) => ({ assetSymbol, booksMinor: m.toString() })),
        });
      },
    );

    app.post(
      '/reconciliation/run',
      {
        preValidation: optionalBody,
        schema: {
          tags,
          security: sec,
          body: RunReconciliation,
          response: responses(200, ReconciliationRunRecord),
          summary:
            "Compares per asset what the books say the platform holds at the market with the given balances (only the assets listed; absent: the venue's own, from the simulated venue in sandbox or the CCXT venue account's free + locked in production; 503 market.unavailable when it cannot be read)",
        },
      },
      async (req) => {
        let given: Map<string, bigint> | null = null;
        if (req.body.marketBalances) {
          const list = req.body.marketBalances.map((b, i) => {
            const amount = toMinor(b.amountMinor);
            if (amount === null) throw new DomainError('request.invalid_amount', { field: `marketBalances.${i}.amountMinor` });
            return { assetSymbol: b.assetSymbol, amount };
          });
          const m = marketBalancesOf(list);
          if (!(m instanceof Map))
            throw new DomainError('request.validation_failed', { detail: `marketBalances lists ${m.duplicate} twice` });
          given = m;
        }
        const r = await runReconciliation(deps, req.operatorActor!, given);
        return ok(req.id, { ...runWire(r.run), reconciled: r.reconciled });
      },
    );

    app.post(
      '/reconciliation/resolve',
      {
        preValidation: optionalBody,
        schema: {
          tags,
          security: sec,
          body: Type.Object({ note: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) }, { additionalProperties: false }),
          response: responses(200, ReconciliationState),
          summary: 'A person reviewed the mismatch: client operations resume',
        },
      },
      async (req) => ok(req.id, stateWire(await resolveReconciliation(deps, req.operatorActor!, req.body.note ?? null))),
    );
  };
