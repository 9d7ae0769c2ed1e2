import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio webhooks test <id>`: a signed webhook.test event sent now (sandbox only), and how the endpoint answered. */
export function register(webhooks: Command, ctx: Ctx): void {
  webhooks
    .command('test <id>')
    .description('send a signed webhook.test event to the endpoint now (sandbox only) and show how it answered')
    .action(async (id: string) => {
      const t = await ctx.sdk().webhooks.test(id);
      ctx.print(t, () =>
        kv([
          ['event', t.eventId],
          ['outcome', t.state],
          ['status', t.statusCode === null ? '—' : String(t.statusCode)],
          ['latency', `${t.latencyMs} ms`],
          ['answer', t.responseExcerpt ?? '—'],
          ...(t.error ? ([['error', t.error]] as Array<[string, string]>) : []),
        ]),
      );
    });
}
