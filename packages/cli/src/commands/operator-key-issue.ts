import type { Scope } from '@cambio/sdk';
import type { Command } from 'commander';
import { commaList, type Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio operator key issue`: the key is shown once, in this answer. */
export function register(key: Command, ctx: Ctx): void {
  key
    .command('issue <memberId>')
    .description('issue a key on behalf of a member holding portal:api_keys; the key is shown only now')
    .requiredOption('--scopes <list>', 'comma-separated scopes, the least that works', commaList)
    .option('--expires-at <iso>', 'expiry (ISO date-time)')
    .option('--allowed-ips <list>', 'comma-separated addresses', commaList)
    .action(async (memberId: string, f: { scopes: string[]; expiresAt?: string; allowedIps?: string[] }) => {
      const k = await ctx.operator().keys.issue(memberId, {
        scopes: f.scopes as Scope[],
        ...(f.expiresAt ? { expiresAt: f.expiresAt } : {}),
        ...(f.allowedIps ? { allowedIps: f.allowedIps } : {}),
      });
      ctx.print(
        k,
        () =>
          `${kv([
            ['key id', k.id],
            ['prefix', k.prefix],
            ['scopes', k.scopes],
            ['member', k.memberId],
            ['expires at', k.expiresAt],
          ])}\n\nthe key (shown once, store it now):\n${k.key}`,
      );
    });
}
