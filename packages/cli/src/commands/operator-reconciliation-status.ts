import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { stateText } from './operator-render.ts';

/** `cambio operator reconciliation status`. */
export function register(rec: Command, ctx: Ctx): void {
  rec.command('status').action(async () => {
    const s = await ctx.operator().reconciliation.get();
    ctx.print(s, () => stateText(s));
  });
}
