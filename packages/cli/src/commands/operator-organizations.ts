import type { ClientStatus, Organization, Permission, Scope } from '@cambio/sdk';
import type { Command } from 'commander';
import { commaList, symbolArg, type Ctx } from '../context.ts';
import { cell, kv } from '../output.ts';
import { operatorAmount, parseLimits } from './operator-helpers.ts';

const orgText = (o: Organization) => kv([['organization', o.id], ['name', o.name], ['status', o.status], ['can operate', o.canOperate ? 'yes' : 'no'], ['limits', o.limits === null ? 'not loaded' : cell(o.limits)], ['updated at', o.updatedAt]]);
const status = (v: string) => v as ClientStatus;

/** `cambio operator org|member|key …`: organizations, the people in them, and their keys. */
export function register(operator: Command, ctx: Ctx): void {
  const org = operator.command('org').description('organizations: create, read, change status or limits, adjust balances');
  org.command('create').description('create an organization (status draft unless given; no limits loaded unless given)')
    .requiredOption('--name <name>', 'its name').option('--status <status>', 'draft, active or suspended', status)
    .option('--limits <json>', 'caps per asset in minimum units; \'{}\' = loaded, no caps')
    .action(async (f: { name: string; status?: ClientStatus; limits?: string }) => {
      const o = await ctx.operator().organizations.create({ name: f.name, ...(f.status ? { status: f.status } : {}), ...(f.limits !== undefined ? { limits: parseLimits(f.limits) } : {}) });
      ctx.print(o, () => orgText(o));
    });
  org.command('get <id>').description('read an organization').action(async (id: string) => {
    const o = await ctx.operator().organizations.get(id);
    ctx.print(o, () => orgText(o));
  });
  org.command('update <id>').description('change status or load limits')
    .option('--status <status>', 'draft, active or suspended', status).option('--limits <json>', 'caps per asset in minimum units; \'{}\' or null')
    .action(async (id: string, f: { status?: ClientStatus; limits?: string }) => {
      const o = await ctx.operator().organizations.update(id, { ...(f.status ? { status: f.status } : {}), ...(f.limits !== undefined ? { limits: parseLimits(f.limits) } : {}) });
      ctx.print(o, () => orgText(o));
    });
  org.command('adjust <id> <asset> <amount>').description('a signed manual ledger adjustment of AMOUNT (a decimal, e.g. -1.50)')
    .requiredOption('--reason <text>', 'why (kept in the audit trail)')
    .action(async (id: string, assetArg: string, amount: string, f: { reason: string }) => {
      const op = ctx.operator();
      const assetSymbol = symbolArg(assetArg);
      const a = await op.organizations.adjust(id, { assetSymbol, amountMinor: await operatorAmount(op, assetSymbol, amount, true), reason: f.reason });
      ctx.print(a, () => kv([['entry', a.entryId], ['adjusted', { assetSymbol: a.assetSymbol, assetDecimals: a.assetDecimals, amountMinor: a.amountMinor }], ['available now', { assetSymbol: a.assetSymbol, assetDecimals: a.assetDecimals, amountMinor: a.availableMinor }]]));
    });

  const member = operator.command('member').description('people of an organization and their role');
  member.command('add <organizationId>').description('add a person')
    .requiredOption('--name <name>', 'name').requiredOption('--email <email>', 'email')
    .requiredOption('--permissions <list>', 'comma-separated: portal:read,portal:trade,portal:deposit,portal:destinations,portal:withdraw,portal:api_keys', commaList)
    .action(async (organizationId: string, f: { name: string; email: string; permissions: string[] }) => {
      const m = await ctx.operator().members.add(organizationId, { name: f.name, email: f.email, permissions: f.permissions as Permission[] });
      ctx.print(m, () => kv([['member', m.id], ['organization', m.organizationId], ['name', m.name], ['email', m.email], ['permissions', m.permissions]]));
    });
  member.command('update <memberId>').description('change the person\'s role (applies to their keys at the next request)')
    .requiredOption('--permissions <list>', 'comma-separated permissions', commaList)
    .action(async (memberId: string, f: { permissions: string[] }) => {
      const m = await ctx.operator().members.update(memberId, { permissions: f.permissions as Permission[] });
      ctx.print(m, () => kv([['member', m.id], ['permissions', m.permissions]]));
    });

  const key = operator.command('key').description('API keys of a member');
  key.command('issue <memberId>').description('issue a key on behalf of a member holding portal:api_keys; the key is shown only now')
    .requiredOption('--scopes <list>', 'comma-separated scopes, the least that works', commaList)
    .option('--expires-at <iso>', 'expiry (ISO date-time)').option('--allowed-ips <list>', 'comma-separated addresses', commaList)
    .action(async (memberId: string, f: { scopes: string[]; expiresAt?: string; allowedIps?: string[] }) => {
      const k = await ctx.operator().keys.issue(memberId, { scopes: f.scopes as Scope[], ...(f.expiresAt ? { expiresAt: f.expiresAt } : {}), ...(f.allowedIps ? { allowedIps: f.allowedIps } : {}) });
      ctx.print(k, () => `${kv([['key id', k.id], ['prefix', k.prefix], ['scopes', k.scopes], ['member', k.memberId], ['expires at', k.expiresAt]])}\n\nthe key (shown once, store it now):\n${k.key}`);
    });
  key.command('revoke <keyId>').description('revoke a key').action(async (keyId: string) => {
    const r = await ctx.operator().keys.revoke(keyId);
    ctx.print(r, () => kv([['revoked', r.id], ['at', r.revokedAt]]));
  });
}
