import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { withdrawalText } from './operator-render.ts';

/** `cambio operator withdrawals reject`: releases the hold. */
export function register(withdrawals: Command, ctx: Ctx): void {
  withdrawals
    .command('reject <withdrawalId>')
    .description('release the hold')
    .option('--reason <text>', 'why')
    .action(async (id: string, f: { reason?: string }) => {
      const w = await ctx.operator().withdrawals.reject(id, f.reason);
      ctx.print(w, () => withdrawalText(w));
    });
}
