import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { withdrawalText } from './operator-render.ts';

/** `cambio operator withdrawals approve`: the amount leaves. */
export function register(withdrawals: Command, ctx: Ctx): void {
  withdrawals
    .command('approve <withdrawalId>')
    .description('the amount leaves (hold consumed)')
    .option('--reason <text>', 'why')
    .action(async (id: string, f: { reason?: string }) => {
      const w = await ctx.operator().withdrawals.approve(id, f.reason);
      ctx.print(w, () => withdrawalText(w));
    });
}
