import type { PortalPolicyRule } from '@cambio/sdk';
import { ErrorBox, formatMoney, Loading } from '@cambio/web-kit';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DateTime } from '../../components/ui.tsx';
import type { MessageKey } from '../../lib/i18n.ts';
import { usePortal } from '../../lib/portal-context.ts';
import { PolicyEditor } from './PolicyEditor.tsx';

const WHAT: Record<PortalPolicyRule['action'], { any: MessageKey; inAsset: MessageKey; from: MessageKey }> = {
  order: { any: 'policy.order.any', inAsset: 'policy.order.inAsset', from: 'policy.order.from' },
  withdrawal: { any: 'policy.withdrawal.any', inAsset: 'policy.withdrawal.inAsset', from: 'policy.withdrawal.from' },
  destination: { any: 'policy.destination.any', inAsset: 'policy.destination.inAsset', from: 'policy.destination.inAsset' },
  policy: { any: 'policy.policy.any', inAsset: 'policy.policy.any', from: 'policy.policy.any' },
};

/** The organization's rules in words, in order (docs/controls.md): the first that matches a request decides. */
export function Policy() {
  const { sdk, t, lang, can } = usePortal();
  const [editing, setEditing] = useState(false);
  const policy = useQuery({ queryKey: ['policy'], queryFn: () => sdk.policy.get() });
  // The asset's decimals as the organization's balances report them: an amount is shown exactly from its digits.
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  const decimalsOf = (symbol: string) => balances.data?.find((b) => b.assetSymbol === symbol)?.assetDecimals;
  const who = (n: number) => (n === 0 ? t('policy.noOne') : n === 1 ? t('approvals.moreOne') : t('approvals.moreMany', { n }));
  const words = (r: PortalPolicyRule) => {
    const w = WHAT[r.action];
    const asset = r.assetSymbol ?? '';
    let what: string;
    if (r.fromAmountMinor !== null && r.assetSymbol) {
      const d = decimalsOf(r.assetSymbol);
      const amount =
        d === undefined ? t('policy.minor', { digits: r.fromAmountMinor.toString() }) : formatMoney(r.fromAmountMinor, d, lang);
      what = t(w.from, { amount, asset });
    } else if (r.fromAmountMinor !== null) {
      what = t(w.from, { amount: t('policy.minor', { digits: r.fromAmountMinor.toString() }), asset: '' });
    } else what = r.assetSymbol ? t(w.inAsset, { asset }) : t(w.any);
    return t('policy.sentence', { what, who: who(r.approvals) });
  };
  const p = policy.data;
  return (
    <section aria-labelledby="policy-title">
      <h1 id="policy-title">{t('policy.title')}</h1>
      <p>{t('policy.intro')}</p>
      <ErrorBox error={policy.error} />
      {!p ? (
        <Loading />
      ) : p.rules.length === 0 ? (
        <p>{t('policy.none')}</p>
      ) : (
        <>
          <ol aria-label={t('policy.rules')}>
            {p.rules.map((r, i) => (
              <li key={i}>{words(r)}</li>
            ))}
          </ol>
          {p.updatedBy && p.updatedAt && (
            <p className="small">
              {t('policy.updated', { name: p.updatedBy.name })} <DateTime iso={p.updatedAt} />
            </p>
          )}
        </>
      )}
      {p &&
        can('portal:policy') &&
        (editing ? (
          <PolicyEditor rules={p.rules} onDone={() => setEditing(false)} />
        ) : (
          <button type="button" onClick={() => setEditing(true)}>
            {t('policy.edit.open')}
          </button>
        ))}
    </section>
  );
}
