import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Amount, Field, SelectField } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Empty } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { readAmount } from '../../lib/money.ts';
import { can } from '../../lib/roles.ts';

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
  const parsed = from.trim() && decimals !== null ? readAmount(from, decimals) : null;
  const admin = can(staff.role, 'manage');

  return (
    <section aria-labelledby="policies-title" className="panel">
      <h2 id="policies-title">Four-eyes rules</h2>
      <p>An order whose base amount, or a withdrawal whose amount, is at or above the figure needs approvals from two different people.</p>
      {policies.error ? <ErrorNote error={policies.error} /> : !policies.data ? null : policies.data.filter((p) => p.secondApprovalFromMinor !== null).length === 0 ? <Empty>No rule: one approval decides.</Empty> : (
        <ul>
          {policies.data.filter((p) => p.secondApprovalFromMinor !== null).map((p) => {
            const d = decimalsOf(assets.data, p.assetSymbol);
            return (
              <li key={p.assetSymbol}>
                {p.assetSymbol}: two approvals from {d !== null ? <Amount minor={p.secondApprovalFromMinor!} decimals={d} symbol={p.assetSymbol} /> : `${p.secondApprovalFromMinor!.toString()} minor units`}
                {admin && <> <button type="button" onClick={() => setConfirming({ asset: p.assetSymbol, minor: null })}>Remove<span className="visually-hidden"> the {p.assetSymbol} rule</span></button></>}
              </li>
            );
          })}
        </ul>
      )}
      {admin && assets.data && assets.data.length > 0 && (
        <form className="inline-form" onSubmit={(e) => { e.preventDefault(); if (parsed?.ok) setConfirming({ asset: symbol, minor: parsed.minor }); }} noValidate>
          <SelectField label="Asset" value={symbol} onChange={setAsset} options={assets.data.map((a) => ({ value: a.symbol, label: a.symbol }))} />
          <Field label="Second approval from" inputMode="decimal" value={from} onChange={setFrom} error={parsed && !parsed.ok ? parsed.error : null} />
          <button type="submit" disabled={!parsed?.ok}>Set rule</button>
        </form>
      )}
      {confirming && (
        <ConfirmDialog title={confirming.minor === null ? `Remove the ${confirming.asset} four-eyes rule?` : `Require two approvals in ${confirming.asset}?`}
          confirmLabel={confirming.minor === null ? 'Remove rule' : 'Set rule'} onClose={() => setConfirming(null)}
          onConfirm={async () => { await op.policies.put(confirming.asset, confirming.minor); setFrom(''); await qc.invalidateQueries({ queryKey: ['policies'] }); }}>
          {confirming.minor === null
            ? <p>One approval will decide any amount of {confirming.asset}.</p>
            : <p>From <Amount minor={confirming.minor} decimals={decimalsOf(assets.data, confirming.asset) ?? 0} symbol={confirming.asset} /> on, two different people must approve.</p>}
        </ConfirmDialog>
      )}
    </section>
  );
}
