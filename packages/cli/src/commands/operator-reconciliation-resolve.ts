import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { stateText } from './operator-render.ts';

/** `cambio operator reconciliation resolve`: a person reviewed the mismatch. */
export function register(rec: Command, ctx: Ctx): void {
  rec
    .command('resolve')
    .description('a person reviewed the mismatch: client operations resume')
    .option('--note <text>', 'what was found')
    .action(async (f: { note?: string }) => {
      const s = await ctx.operator().reconciliation.resolve(f.note ? { note: f.note } : {});
      ctx.print(s, () => stateText(s));
    });
}
