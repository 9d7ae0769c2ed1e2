import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import { symbolArg, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

interface Flags {
  label: string;
  asset: string;
  bank: string;
  kind: string;
  account: string;
  holder: string;
  document: string;
}

export function register(withdraw: Command, ctx: Ctx): void {
  withdraw
    .command('register')
    .description("register a bank account as a destination; usable after a cooldown and the operator's registration in the market")
    .requiredOption('--label <text>', 'a name for it')
    .requiredOption('--asset <symbol>', 'the asset it receives')
    .requiredOption('--bank <name>', 'bank name')
    .requiredOption('--kind <kind>', 'savings or checking')
    .requiredOption('--account <number>', 'account number')
    .requiredOption('--holder <name>', 'account holder; decides which payment route a withdrawal may take')
    .requiredOption('--document <id>', "holder's document number")
    .action(async (f: Flags) => {
      if (f.kind !== 'savings' && f.kind !== 'checking') throw new UsageError('--kind must be savings or checking');
      const r = await ctx.sdk().withdrawals.registerBankDestination({
        label: f.label,
        assetSymbol: symbolArg(f.asset),
        bankName: f.bank,
        accountKind: f.kind,
        accountNumber: f.account,
        holderName: f.holder,
        holderDocument: f.document,
      });
      ctx.reportOutcome(r, 'destination');
      const d = r.data;
      ctx.print(d, () =>
        kv([
          ['destination', d.id],
          ['label', d.label],
          ['asset', d.assetSymbol],
          ['summary', d.summary],
          ['usable', d.usable ? 'yes' : 'not yet (cooldown, then registration in the market)'],
        ]),
      );
    });
}
