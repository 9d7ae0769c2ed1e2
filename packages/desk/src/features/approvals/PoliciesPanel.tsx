import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Amount, ErrorBox, Field, SelectField } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { readAmount } from '../../lib/money.ts';
import { can } from '../../lib/roles.ts';
import { amountWords, t } from '../../lib/i18n.ts';

/** Four-eyes: from which amount an order's base or a withdrawal needs two different people. */
export function PoliciesPanel() {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const policies = useQuery({ queryKey: ['policies'], queryFn: () => op.policies.list() });
  const assets = useAssets();
  const [asset, setAsset] = useState('');
  const [from, setFrom] = useState('');
  const [confirming, setConfirming] = useState<{ asset: string; minor: bigint | null } | null>(null);
  const symbol = asset || assets.data?.[0]?.symbol || '';
  const decimals = decimalsOf(assets.data, symbol);
  const parsed = from.trim() && decimals !== null ? readAmount(from, decimals, amountWords) : null;
  const admin = can(staff.role, 'manage');

  return (
    <section aria-labelledby="policies-title" className="panel">
      <h2 id="policies-title">{t('policies.title')}</h2>
      <p>{t('policies.intro')}</p>
      {policies.error ? (
        <ErrorBox error={policies.error} />
      ) : !policies.data ? null : policies.data.filter((p) => p.secondApprovalFromMinor !== null).length === 0 ? (
        <Empty>{t('policies.none')}</Empty>
      ) : (
        <ul>
          {policies.data
            .filter((p) => p.secondApprovalFromMinor !== null)
            .map((p) => {
              const d = decimalsOf(assets.data, p.assetSymbol);
              return (
                <li key={p.assetSymbol}>
                  {t('policies.twoFrom', { asset: p.assetSymbol })}
                  {d !== null ? (
                    <Amount minor={p.secondApprovalFromMinor!} decimals={d} symbol={p.assetSymbol} />
                  ) : (
                    t('common.minorUnits', { n: p.secondApprovalFromMinor!.toString() })
                  )}
                  {admin && (
                    <>
                      {' '}
                      <button type="button" onClick={() => setConfirming({ asset: p.assetSymbol, minor: null })}>
                        {t('policies.remove')}
                        <span className="visually-hidden">{t('policies.theRule', { asset: p.assetSymbol })}</span>
                      </button>
                    </>
                  )}
                </li>
              );
            })}
        </ul>
      )}
      {admin && assets.data && assets.data.length > 0 && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (parsed?.ok) setConfirming({ asset: symbol, minor: parsed.minor });
          }}
          noValidate
        >
          <SelectField
            label={t('common.asset')}
            value={symbol}
            onChange={setAsset}
            options={assets.data.map((a) => ({ value: a.symbol, label: a.symbol }))}
          />
          <Field
            label={t('policies.from')}
            inputMode="decimal"
            value={from}
            onChange={setFrom}
            error={parsed && !parsed.ok ? parsed.error : null}
          />
          <button type="submit" disabled={!parsed?.ok}>
            {t('policies.set')}
          </button>
        </form>
      )}
      {confirming && (
        <ConfirmDialog
          title={
            confirming.minor === null
              ? t('policies.removeTitle', { asset: confirming.asset })
              : t('policies.setTitle', { asset: confirming.asset })
          }
          confirmLabel={confirming.minor === null ? t('policies.removeRule') : t('policies.set')}
          onClose={() => setConfirming(null)}
          onConfirm={async () => {
            await op.policies.put(confirming.asset, confirming.minor);
            setFrom('');
            await qc.invalidateQueries({ queryKey: ['policies'] });
          }}
        >
          {confirming.minor === null ? (
            <p>{t('policies.oneDecides', { asset: confirming.asset })}</p>
          ) : (
            <p>
              {t('policies.fromOn')}
              <Amount minor={confirming.minor} decimals={decimalsOf(assets.data, confirming.asset) ?? 0} symbol={confirming.asset} />
              {t('policies.twoPeople')}
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
