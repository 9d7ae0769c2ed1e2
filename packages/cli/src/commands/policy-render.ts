import type { PortalPolicy } from '@cambio/sdk';
import { kv, table } from '../output.ts';

/** The rules in order (the first that matches decides), amounts in minimum units as stored. */
export function policyText(p: PortalPolicy): string {
  const rules = table(
    ['#', 'ACTION', 'ASSET', 'FROM (MINIMUM UNITS)', 'MORE APPROVALS'],
    p.rules.map((r, i) => [i + 1, r.action, r.assetSymbol ?? 'any', r.fromAmountMinor ?? 'any amount', r.approvals]),
  );
  const head = kv([
    ['updated at', p.updatedAt],
    ['updated by', p.updatedBy ? `${p.updatedBy.name} (${p.updatedBy.id})` : null],
  ]);
  return `${head}\n\n${rules}`;
}
