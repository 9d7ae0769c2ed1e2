import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AssetSymbol, DateTime, Nullable, SignedAmountString } from './common.ts';

/**
 * Body of POST /operator/v1/reconciliation/run. Absent marketBalances: the venue's balances. Given: only the
 * assets listed are compared (an asset left out is not counted as zero).
 */
export const RunReconciliation = Type.Object(
  {
    marketBalances: Type.Optional(
      Type.Array(
        Type.Object(
          {
            assetSymbol: AssetSymbol,
            amountMinor: AmountInput,
          },
          { additionalProperties: false },
        ),
        { maxItems: 500 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type RunReconciliation = Static<typeof RunReconciliation>;

/** One asset of a run: what the books say the platform holds at the market, what the market says, market − books. */
export const ReconciliationFigure = Type.Object({
  assetSymbol: Type.String(),
  booksMinor: SignedAmountString,
  marketMinor: SignedAmountString,
  differenceMinor: SignedAmountString,
  matched: Type.Boolean(),
});
export type ReconciliationFigure = Static<typeof ReconciliationFigure>;

export const ReconciliationRunRecord = Type.Object({
  id: Type.String(),
  matched: Type.Boolean(),
  source: Type.Unsafe<'given' | 'venue'>({ type: 'string', enum: ['given', 'venue'], description: 'where the market figures came from' }),
  figures: Type.Array(ReconciliationFigure),
  actor: Type.String(),
  createdAt: DateTime,
  reconciled: Type.Boolean({ description: 'the platform state after this run' }),
});
export type ReconciliationRunRecord = Static<typeof ReconciliationRunRecord>;

/** GET /operator/v1/reconciliation and the answer of resolve. */
export const ReconciliationState = Type.Object({
  reconciled: Type.Boolean({ description: 'false: every client call that moves or holds money answers 409 ledger.ledger_not_reconciled' }),
  changedAt: DateTime,
  stoppedByRunId: Nullable(Type.String()),
  lastRun: Nullable(Type.Omit(ReconciliationRunRecord, ['reconciled'])),
});
export type ReconciliationState = Static<typeof ReconciliationState>;

/** GET /operator/v1/reconciliation/books: what the books say the platform holds at the market, per asset, now. */
export const ReconciliationBooks = Type.Object({
  books: Type.Array(Type.Object({ assetSymbol: Type.String(), booksMinor: SignedAmountString })),
});
export type ReconciliationBooks = Static<typeof ReconciliationBooks>;
