import { DecideWithdrawal, ListQuery, OperatorWithdrawal, RecordFailure, RecordPayout, WithdrawalState } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { approverOf } from '../../http/plugins/operator-auth.ts';
import { withdrawalApprovals, type ApprovalsWire } from '../approvals-view.ts';
import { pageParams } from '../../http/page-params.ts';
import { withdrawalWire } from '../../http/wire/withdrawals.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import type { WithdrawalRow } from '../../store/withdrawals-store.ts';
import type { CryptoWithdrawalView } from '../../usecases/ports.ts';
import { approveWithdrawal, rejectWithdrawal } from '../../usecases/withdrawals/decide-withdrawal.ts';
import { recordPayout, recordWithdrawalFailure } from '../../usecases/withdrawals/record-payout.ts';

const sec = [{ operator: [] }];
const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const wire = (w: WithdrawalRow, a: ApprovalsWire, v: CryptoWithdrawalView | undefined) => ({
  ...withdrawalWire(w),
  organizationId: w.organizationId,
  ...a,
  payoutReference: w.payoutReference,
  // A crypto withdrawal sent by the venue: where it stands there (the desk shows it beside the txid).
  venue: v
    ? { state: v.state, status: v.status, amount: v.amount, fee: v.fee, venueWithdrawalId: v.venueWithdrawalId, reason: v.reason }
    : null,
});

/** Withdrawal requests across organizations, the one decision each gets and, in production, the payout (docs/operator-guide.md, docs/design/money-and-states.md). */
export const operatorWithdrawalRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, venue } = deps;
    const tags = ['operator: withdrawals'];
    const venueViews = async (ws: WithdrawalRow[]) => (venue.cryptoPayouts ? venue.cryptoPayouts.views(ws.map((w) => w.id)) : new Map());
    // The body of a decision is optional: a bare POST is a decision without a reason.
    const optionalBody = async (req: { body: unknown }) => {
      req.body ??= {};
    };
    const one = async (w: WithdrawalRow, reqId: string) =>
      ok(reqId, wire(w, (await withdrawalApprovals(store, [w]))[0]!, (await venueViews([w])).get(w.id)));

    app.get(
      '/withdrawals',
      {
        schema: {
          tags,
          security: sec,
          querystring: ListQuery({
            state: Type.Optional(WithdrawalState),
            organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          }),
          response: listResponses(OperatorWithdrawal),
          summary: 'Withdrawal requests of every organization, newest first; ?state= and ?organizationId= filter',
        },
      },
      async (req) => {
        const page = await store.withdrawals.list(pageParams(req.query), {
          operator: true,
          ...(req.query.state ? { state: req.query.state } : {}),
          ...(req.query.organizationId ? { organizationId: req.query.organizationId } : {}),
        });
        const approvals = await withdrawalApprovals(store, page.items);
        const views = await venueViews(page.items);
        return ok(
          req.id,
          page.items.map((w, i) => wire(w, approvals[i]!, views.get(w.id))),
          page.pagination,
        );
      },
    );

    app.post(
      '/withdrawals/:id/approve',
      {
        preValidation: optionalBody,
        schema: {
          tags,
          security: sec,
          params: IdParam,
          body: DecideWithdrawal,
          response: responses(200, OperatorWithdrawal),
          summary:
            'Sandbox: the amount leaves (hold consumed): completed (to a crypto address, with a made-up txid). Production: stays approved until the desk records the payout or its failure; at a CCXT venue a crypto withdrawal is sent there and completes with its txid, or fails with the hold released. Once; a second decision is 409. Four-eyes: a first of two approvals answers it still pending_approval, with one approval; the same person again is 409, the bootstrap token 403',
        },
      },
      async (req) => one(await approveWithdrawal(deps, approverOf(req), req.params.id, req.body.reason ?? null), req.id),
    );

    app.post(
      '/withdrawals/:id/reject',
      {
        preValidation: optionalBody,
        schema: {
          tags,
          security: sec,
          params: IdParam,
          body: DecideWithdrawal,
          response: responses(200, OperatorWithdrawal),
          summary: 'The hold is released. Once; a second decision is 409',
        },
      },
      async (req) => one(await rejectWithdrawal(deps, req.operatorActor!, req.params.id, req.body.reason ?? null), req.id),
    );

    app.post(
      '/withdrawals/:id/payout',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          body: RecordPayout,
          response: responses(200, OperatorWithdrawal),
          summary:
            "Production: staff paid an approved withdrawal out; completed with the transfer's reference (a crypto one: with its txid, default the reference). Once; 409 withdrawals.not_awaiting_payout after",
        },
      },
      async (req) => one(await recordPayout(deps, req.operatorActor!, req.params.id, req.body.payoutReference, req.body.txid), req.id),
    );

    app.post(
      '/withdrawals/:id/fail',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          body: RecordFailure,
          response: responses(200, OperatorWithdrawal),
          summary: 'Production: the payout did not happen: failed, hold released. Once; 409 withdrawals.not_awaiting_payout after',
        },
      },
      async (req) => one(await recordWithdrawalFailure(deps, req.operatorActor!, req.params.id, req.body.reason), req.id),
    );
  };
