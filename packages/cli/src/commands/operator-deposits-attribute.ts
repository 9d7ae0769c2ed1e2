import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { depositText } from './operator-render.ts';

/** `cambio operator deposits attribute`: credit an unattributed arrival by hand. */
export function register(deposits: Command, ctx: Ctx): void {
  deposits
    .command('attribute <depositId> <organizationId>')
    .description('credit an unattributed arrival by hand')
    .action(async (id: string, organizationId: string) => {
      const d = await ctx.operator().deposits.attribute(id, organizationId);
      ctx.print(d, () => depositText(d));
    });
}
