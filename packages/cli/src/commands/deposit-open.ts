import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { declarationText } from './deposit-declare.ts';

export function register(deposit: Command, ctx: Ctx): void {
  deposit
    .command('open')
    .description('the open deposit declaration, if any (at most one is open)')
    .action(async () => {
      const d = await ctx.sdk().deposits.openDeclaration();
      ctx.print(d, () => (d ? declarationText(d) : 'no declaration is open'));
    });
}
