import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { UsageError } from '../config.ts';

interface Flags {
  format?: string;
  out?: string;
  statementLang?: string;
}

/**
 * `cambio statement BTC 2026-01 --format pdf --out btc-2026-01.pdf`: one asset's statement of one month
 * (docs/sdk-and-cli.md), written as the server sent it. Without --out a CSV goes to stdout; a PDF needs a file.
 */
export function register(program: Command, ctx: Ctx): void {
  program
    .command('statement <asset> <month>')
    .description("one asset's monthly statement (opening balance, every entry, closing balance), month as YYYY-MM (UTC)")
    .option('--format <format>', 'csv or pdf', 'csv')
    .option('--out <file>', 'write it to this file (a PDF needs one); a CSV without it goes to stdout')
    .option('--statement-lang <code>', "the statement's language, en or es (default: the organization's choice)")
    .action(async (asset: string, month: string, f: Flags) => {
      const format = f.format ?? 'csv';
      if (format !== 'csv' && format !== 'pdf') throw new UsageError('--format must be csv or pdf');
      const given = f.statementLang;
      if (given !== undefined && given !== 'en' && given !== 'es') throw new UsageError('--statement-lang must be en or es');
      const lang: 'en' | 'es' | undefined = given;
      if (format === 'pdf' && !f.out) throw new UsageError('a PDF is written to a file: add --out <file>');
      const symbol = asset.toUpperCase();
      const opts = lang ? { lang } : {};
      const body =
        format === 'pdf'
          ? await ctx.sdk().statements.download(symbol, month, { format: 'pdf', ...opts })
          : await ctx.sdk().statements.download(symbol, month, { format: 'csv', ...opts });
      if (!f.out) {
        ctx.io.stdout(body as string);
        return;
      }
      writeFileSync(f.out, body);
      ctx.io.stderr(`wrote ${f.out} (${symbol} ${month}, ${format})\n`);
    });
}
