import type { PortalPolicyRule, PortalPolicyRuleInput } from '@cambio/sdk';
import { ErrorBox, Field, readAmount, SelectField, typedAmount, useActionKey } from '@cambio/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { MessageKey } from '../../lib/i18n.ts';
import { usePortal } from '../../lib/portal-context.ts';

type Action = PortalPolicyRule['action'];
const ACTIONS: Action[] = ['withdrawal', 'order', 'destination', 'policy'];
const ACTION_WORD: Record<Action, MessageKey> = {
  withdrawal: 'policy.edit.withdrawal',
  order: 'policy.edit.order',
  destination: 'policy.edit.destination',
  policy: 'policy.edit.policy',
};

/** A rule as the form holds it: the amount as the person typed it, read exactly when saved. */
interface Draft {
  key: number;
  action: Action;
  assetSymbol: string;
  amount: string;
  approvals: string;
}

let nextKey = 0;

/**
 * Edits the organization's rules in place (docs/controls.md): add, reorder, remove, then save them all at
 * once. An amount is typed in the person's language and read exactly with the asset's decimals (never a JS
 * number); when the rules in force ask members to approve a change, saving answers that it waits for them.
 */
export function PolicyEditor({ rules, onDone }: { rules: PortalPolicyRule[]; onDone: () => void }) {
  const { sdk, t, lang } = usePortal();
  const qc = useQueryClient();
  const key = useActionKey();
  const pairs = useQuery({ queryKey: ['market-pairs'], queryFn: () => sdk.market.pairs() });
  const decimals = new Map<string, number>();
  for (const p of pairs.data ?? []) {
    decimals.set(p.baseSymbol, p.baseDecimals);
    decimals.set(p.quoteSymbol, p.quoteDecimals);
  }
  const symbols = [...decimals.keys()].sort();
  const [drafts, setDrafts] = useState<Draft[]>(() =>
    rules.map((r) => ({ key: nextKey++, action: r.action, assetSymbol: r.assetSymbol ?? '', amount: '', approvals: String(r.approvals) })),
  );
  // The rules' amounts, in the person's digits, once the assets' decimals are known.
  const [seeded, setSeeded] = useState(false);
  if (!seeded && pairs.data) {
    setSeeded(true);
    setDrafts((ds) =>
      ds.map((d, i) => {
        const minor = rules[i]?.fromAmountMinor ?? null;
        const dec = decimals.get(d.assetSymbol);
        return minor === null || dec === undefined ? d : { ...d, amount: typedAmount(minor, dec, lang) };
      }),
    );
  }
  const [problems, setProblems] = useState<Record<number, string>>({});
  const [waits, setWaits] = useState(false);

  const set = (k: number, change: Partial<Draft>) => setDrafts((ds) => ds.map((d) => (d.key === k ? { ...d, ...change } : d)));
  const move = (i: number, by: -1 | 1) =>
    setDrafts((ds) => {
      const out = [...ds];
      const [d] = out.splice(i, 1);
      out.splice(i + by, 0, d!);
      return out;
    });

  const save = useMutation({
    mutationFn: async () => {
      const found: Record<number, string> = {};
      const input: PortalPolicyRuleInput[] = drafts.map((d) => {
        let fromAmountMinor: bigint | null = null;
        const amounted = d.action === 'order' || d.action === 'withdrawal';
        if (amounted && d.amount.trim() !== '') {
          const dec = decimals.get(d.assetSymbol);
          if (dec === undefined) found[d.key] = t('policy.edit.amountNeedsAsset');
          else {
            const read = readAmount(d.amount, dec, { positive: true, lang });
            if (read.ok) fromAmountMinor = read.minor;
            else found[d.key] = t(`amount.${read.reason}`, { asset: d.assetSymbol, decimals: dec });
          }
        }
        return { action: d.action, assetSymbol: d.assetSymbol || null, fromAmountMinor, approvals: Number(d.approvals) };
      });
      setProblems(found);
      if (Object.keys(found).length > 0) return null;
      return key.run(input, (idempotencyKey) => sdk.policy.put(input, { idempotencyKey }));
    },
    onSuccess: async (r) => {
      if (r === null) return;
      await qc.invalidateQueries({ queryKey: ['policy'] });
      if (r.applied) onDone();
      else setWaits(true);
    },
  });

  return (
    <form
      aria-labelledby="policy-edit-title"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2 id="policy-edit-title">{t('policy.edit.title')}</h2>
      <p className="hint">{t('policy.edit.hint')}</p>
      <ErrorBox error={save.error} />
      {waits && (
        <p role="status" className="notice">
          {t('policy.edit.waits')}
        </p>
      )}
      <ol className="rule-list">
        {drafts.map((d, i) => (
          <li key={d.key}>
            <fieldset>
              <legend>{t('policy.edit.rule', { n: i + 1 })}</legend>
              <SelectField
                label={t('policy.edit.action')}
                value={d.action}
                onChange={(v) => set(d.key, { action: v as Action })}
                options={ACTIONS.map((a) => ({ value: a, label: t(ACTION_WORD[a]) }))}
              />
              <SelectField
                label={t('common.asset')}
                value={d.assetSymbol}
                onChange={(v) => set(d.key, { assetSymbol: v })}
                options={[{ value: '', label: t('policy.edit.anyAsset') }, ...symbols.map((s) => ({ value: s, label: s }))]}
              />
              {(d.action === 'order' || d.action === 'withdrawal') && (
                <Field
                  label={t('policy.edit.from')}
                  hint={t('policy.edit.fromHint')}
                  inputMode="decimal"
                  autoComplete="off"
                  value={d.amount}
                  onChange={(v) => set(d.key, { amount: v })}
                  error={problems[d.key] ?? null}
                  disabled={d.assetSymbol === ''}
                />
              )}
              <SelectField
                label={t('policy.edit.approvals')}
                value={d.approvals}
                onChange={(v) => set(d.key, { approvals: v })}
                options={['0', '1', '2', '3', '4', '5'].map((n) => ({ value: n, label: n }))}
              />
              <div className="actions">
                <button type="button" disabled={i === 0} onClick={() => move(i, -1)}>
                  {t('policy.edit.up', { n: i + 1 })}
                </button>{' '}
                <button type="button" disabled={i === drafts.length - 1} onClick={() => move(i, 1)}>
                  {t('policy.edit.down', { n: i + 1 })}
                </button>{' '}
                <button type="button" onClick={() => setDrafts((ds) => ds.filter((x) => x.key !== d.key))}>
                  {t('policy.edit.remove', { n: i + 1 })}
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <div className="actions">
        <button
          type="button"
          onClick={() => setDrafts((ds) => [...ds, { key: nextKey++, action: 'withdrawal', assetSymbol: '', amount: '', approvals: '1' }])}
        >
          {t('policy.edit.add')}
        </button>{' '}
        <button type="submit" disabled={save.isPending}>
          {t('policy.edit.save')}
        </button>{' '}
        <button type="button" onClick={onDone}>
          {t('policy.edit.cancel')}
        </button>
      </div>
    </form>
  );
}
