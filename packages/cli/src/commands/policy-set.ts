import { readFileSync } from 'node:fs';
import type { PortalPolicyRuleInput } from '@cambio/sdk';
import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import type { Ctx } from '../context.ts';
import { kv } from '../output.ts';
import { policyText } from './policy-render.ts';

/** The rules of a file: a JSON array of rules, or `{"rules": [...]}` as `cambio policy show --json` prints it. */
function rulesOf(path: string): PortalPolicyRuleInput[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not valid JSON`);
  }
  const rules = Array.isArray(parsed) ? parsed : (parsed as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) throw new UsageError(`${path} must hold an array of rules, or {"rules": [...]}`);
  // Amounts stay as the file spells them (digit strings of minimum units); the server checks every rule.
  return rules.map((r: Record<string, unknown>) => ({
    action: r.action as PortalPolicyRuleInput['action'],
    ...(r.assetSymbol !== undefined ? { assetSymbol: r.assetSymbol as string | null } : {}),
    ...(r.fromAmountMinor !== undefined ? { fromAmountMinor: r.fromAmountMinor as string | null } : {}),
    approvals: r.approvals as number,
  }));
}

/** `cambio policy set --file rules.json` (portal:policy): replaces every rule, or proposes the change when the rules ask for approvals of policy changes. */
export function register(policy: Command, ctx: Ctx): void {
  policy
    .command('set')
    .description('replace every rule with those of a JSON file (amounts in minimum units, as `policy show --json` prints them)')
    .requiredOption('--file <path>', 'JSON: [{"action":"withdrawal","assetSymbol":"USD","fromAmountMinor":"1000000","approvals":1}]')
    .action(async (f: { file: string }) => {
      const rules = rulesOf(f.file);
      const r = await ctx.asMember((portal) => portal.policy.put(rules));
      if (r.applied) {
        const { applied: _applied, ...p } = r;
        ctx.print(p, () => policyText(p));
        return;
      }
      ctx.print({ id: r.id, state: r.state }, () =>
        kv([
          ['change', r.id],
          ['state', r.state],
        ]),
      );
      ctx.note('the rules in force ask other members to approve policy changes: it applies once they have (see: cambio approvals list)');
    });
}
