import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { kv } from '../output.ts';

/** `cambio operator key revoke`. */
export function register(key: Command, ctx: Ctx): void {
  key
    .command('revoke <keyId>')
    .description('revoke a key')
    .action(async (keyId: string) => {
      const r = await ctx.operator().keys.revoke(keyId);
      ctx.print(r, () =>
        kv([
          ['revoked', r.id],
          ['at', r.revokedAt],
        ]),
      );
    });
}
