import { SANDBOX_MAGIC_ENDINGS } from '@cambio/contract';
import { formatMinor } from '@cambio/sdk';
import { usePortal } from '../lib/portal-context.ts';

/**
 * Beside an amount field, in sandbox only: the amounts the platform decides by itself (docs/sandbox.md),
 * with an example in the asset's decimals. Nothing in production.
 */
export function MagicAmounts({
  kind,
  asset,
  decimals,
}: {
  kind: 'order' | 'withdrawal' | 'declaration';
  asset: string;
  decimals: number | undefined;
}) {
  const { sandbox, t } = usePortal();
  if (!sandbox || decimals === undefined) return null;
  // The smallest amount of the form 1…1111 that a declaration accepts (at least 10^5 minimum units), so the example works as typed.
  const example = formatMinor(BigInt(`1${'0'.repeat(Math.max(decimals, 5) - 4)}${SANDBOX_MAGIC_ENDINGS.complete}`), decimals);
  const key = kind === 'order' ? 'sandbox.magicOrder' : kind === 'withdrawal' ? 'sandbox.magicWithdrawal' : 'sandbox.magicDeclaration';
  return (
    // No accessible name of its own: a name saying "amounts" would be one more match for the field labelled "Amount".
    <p className="hint magic-amounts" role="note">
      <strong>{t('sandbox.magicTitle')}:</strong> {t(key, { complete: example, asset })}
    </p>
  );
}
