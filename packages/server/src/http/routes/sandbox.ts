import { DepositRecord, SandboxDeposit, WebhookTestResult } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { toMinor } from '../../domain/money.ts';
import { simulateDeposit } from '../../usecases/sandbox/simulate-deposit.ts';
import { sendTestEvent } from '../../usecases/webhooks/send-test-event.ts';
import { webhookSenderOf } from '../../webhooks/http-sender.ts';
import { ok } from '../envelope.ts';
import { actorOfPrincipal, principalOf } from '../route-config.ts';
import { apiKeySecurity, IdParam, responses } from '../schemas.ts';
import { depositWire } from '../wire/deposits.ts';

/**
 * What only the sandbox offers (docs/sandbox.md): simulated arrivals and test events. Registered in
 * sandbox mode only, so in production these paths are unknown (404), like any other.
 */
export const sandboxRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    if (deps.config.mode !== 'sandbox') return;

    app.post(
      '/sandbox/deposits',
      {
        config: { scope: 'portal:deposit' },
        schema: {
          tags: ['sandbox'],
          security: apiKeySecurity,
          body: SandboxDeposit,
          response: responses(201, DepositRecord),
          operationId: 'simulateDeposit',
          summary:
            "Sandbox only: money arrives at the asset's deposit wallet, matched as the operator's record of an arrival (a declaration of that exact amount is credited; otherwise it waits unattributed)",
        },
      },
      async (req, reply) => {
        const amount = toMinor(req.body.amountMinor);
        if (amount === null || amount === 0n) throw new DomainError('request.invalid_amount', { field: 'amountMinor' });
        const d = await simulateDeposit(deps, actorOfPrincipal(principalOf(req)), {
          assetSymbol: req.body.assetSymbol,
          network: req.body.network,
          amount,
          txid: req.body.txid,
        });
        return reply.code(201).send(ok(req.id, depositWire(d)));
      },
    );

    app.post(
      '/webhooks/:id/test',
      {
        config: { scope: 'portal:webhooks' },
        schema: {
          tags: ['webhooks', 'sandbox'],
          security: apiKeySecurity,
          params: IdParam,
          response: responses(200, WebhookTestResult),
          operationId: 'testWebhook',
          summary:
            'Sandbox only: sends a signed webhook.test event to the endpoint now and answers how it went (status, latency, the start of its answer)',
        },
      },
      async (req) => {
        const r = await sendTestEvent({ ...deps, sender: webhookSenderOf(deps) }, principalOf(req).organization.id, req.params.id);
        return ok(req.id, { ...r, sentAt: r.sentAt.toISOString() });
      },
    );
  };
