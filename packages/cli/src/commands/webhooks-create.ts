import type { Command } from 'commander';
import type { WebhookEventType } from '@cambio/sdk';
import type { Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio webhooks create <url>`: registers an endpoint; prints its signing secret, this once. */
export function register(webhooks: Command, ctx: Ctx): void {
  webhooks
    .command('create <url>')
    .description("register an endpoint that receives the organization's events, signed; its secret is shown only now")
    .option('--type <type...>', 'event types to send (e.g. order.completed); default: every type')
    .action(async (url: string, f: { type?: string[] }) => {
      const w = await ctx.sdk().webhooks.create({ url, ...(f.type ? { types: f.type as WebhookEventType[] } : {}) });
      ctx.print(w, () =>
        kv([
          ['webhook', w.id],
          ['url', w.url],
          ['events', w.types ? w.types.join(', ') : 'all'],
          ['status', w.status],
          ['secret', w.secret],
        ]),
      );
      ctx.note('keep the secret now: it is not shown again (verify deliveries with verifyWebhook of @cambio/sdk)');
    });
}
