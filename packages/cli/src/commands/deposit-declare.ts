import type { DepositDeclaration } from '@cambio/sdk';
import type { Command } from 'commander';
import { amountArg, symbolArg, wholeNumber, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

export const declarationText = (d: DepositDeclaration) =>
  `${kv([
    ['declaration', d.id],
    ['reference', d.reference],
    ['state', d.state],
    ['send exactly', `${d.expectedAmount} ${d.assetSymbol}`],
    ['network', d.network],
    ['address', d.address],
    ['expires at', `${d.expiresAt} (in ${d.expiresInSeconds} s)`],
  ])}\n\nthe exact amount is how the deposit is recognised: any other amount waits for manual attribution`;

export function register(deposit: Command, ctx: Ctx): void {
  deposit
    .command('declare <asset> <amount>')
    .description('announce a deposit of about AMOUNT (a decimal); the answer gives the exact amount to send')
    .option('--decimals <n>', 'decimals of the asset, only when the organization holds none of it (the server checks them)', wholeNumber)
    .action(async (assetArg: string, amount: string, f: { decimals?: number }) => {
      const assetSymbol = symbolArg(assetArg);
      const c = ctx.sdk();
      const assetDecimals = await ctx.decimalsOf(c, assetSymbol, f.decimals);
      const r = await c.deposits.declare({ assetSymbol, assetDecimals, declaredAmountMinor: amountArg(amount, assetDecimals) });
      ctx.reportOutcome(r, 'declaration');
      ctx.print(r.data, () => declarationText(r.data));
    });
}
