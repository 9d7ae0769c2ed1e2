import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { OperatorRule, OperatorRuleInput, RulesDraft, StaffRole } from '@cambio/sdk';
import { ErrorBox, Field, SelectField } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { can } from '../../lib/roles.ts';
import { roleWord, t } from '../../lib/i18n.ts';

const ACTIONS = ['order', 'withdrawal', 'adjustment', 'attribution'] as const;
const ROLES = ['approver', 'admin', 'viewer'] as const;

/** A rule being edited: text as typed, checked when the draft is saved (the server answers a bad one with its code). */
interface Row {
  action: OperatorRule['action'];
  assetSymbol: string;
  organizationId: string;
  fromAmountMinor: string;
  approvals: string;
  roles: string[];
}

const toRow = (r: OperatorRule): Row => ({
  action: r.action,
  assetSymbol: r.assetSymbol ?? '',
  organizationId: r.organizationId ?? '',
  fromAmountMinor: r.fromAmountMinor === null ? '' : r.fromAmountMinor.toString(),
  approvals: String(r.approvals),
  roles: r.roles,
});
const toInput = (r: Row): OperatorRuleInput => ({
  action: r.action,
  approvals: Number(r.approvals),
  roles: r.roles,
  ...(r.assetSymbol.trim() ? { assetSymbol: r.assetSymbol.trim().toUpperCase() } : {}),
  ...(r.organizationId.trim() ? { organizationId: r.organizationId.trim() } : {}),
  // Minimum units, exact as typed: the server refuses anything but digits.
  ...(r.fromAmountMinor.trim() ? { fromAmountMinor: r.fromAmountMinor.trim() } : {}),
});

/** One rule in words: "Withdrawal · USD · any organization · from 1000000 minimum units: 3 approvals (admin)". */
function ruleWords(r: OperatorRule): string {
  return t('rules.words', {
    action: t(`rules.action.${r.action}`),
    asset: r.assetSymbol ?? t('rules.anyAsset'),
    organization: r.organizationId ?? t('rules.anyOrganization'),
    from: r.fromAmountMinor === null ? t('rules.anyAmount') : t('rules.fromMinor', { n: r.fromAmountMinor.toString() }),
    approvals: String(r.approvals),
    roles: r.roles.map((x) => roleWord(x as StaffRole)).join(', '),
  });
}

function RuleList({ rules, label }: { rules: OperatorRule[]; label: string }) {
  if (rules.length === 0) return <Empty>{t('rules.none')}</Empty>;
  return (
    <ol aria-label={label}>
      {rules.map((r, i) => (
        <li key={i}>{ruleWords(r)}</li>
      ))}
    </ol>
  );
}

/**
 * The operator's policy (docs/controls.md): the rules in force beside the open draft; an admin edits the
 * rules into a draft, and another admin publishes it.
 */
export function RulesPanel() {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const published = useQuery({ queryKey: ['operator-rules'], queryFn: () => op.policies.rules() });
  const drafts = useQuery({ queryKey: ['operator-rule-drafts'], queryFn: () => op.policies.drafts() });
  const admin = can(staff.role, 'manage');
  const [rows, setRows] = useState<Row[] | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [publishing, setPublishing] = useState<RulesDraft | null>(null);
  const draft = drafts.data?.[0] ?? null;
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['operator-rules'] });
    await qc.invalidateQueries({ queryKey: ['operator-rule-drafts'] });
  };
  const setRow = (i: number, patch: Partial<Row>) => setRows((rs) => rs && rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  return (
    <section aria-labelledby="rules-title" className="panel">
      <h2 id="rules-title">{t('rules.title')}</h2>
      <p>{t('rules.intro')}</p>
      {published.error ? <ErrorBox error={published.error} /> : null}
      {drafts.error ? <ErrorBox error={drafts.error} /> : null}
      <div className="rules-columns">
        <section aria-labelledby="rules-published">
          <h3 id="rules-published">{t('rules.published')}</h3>
          {published.data && (
            <>
              <RuleList rules={published.data.rules} label={t('rules.published')} />
              {published.data.publishedBy && <p className="note">{t('rules.publishedBy', { name: published.data.publishedBy.name })}</p>}
            </>
          )}
        </section>
        <section aria-labelledby="rules-draft">
          <h3 id="rules-draft">{t('rules.draft')}</h3>
          {!drafts.data ? null : !draft ? (
            <Empty>{t('rules.noDraft')}</Empty>
          ) : (
            <>
              <RuleList rules={draft.rules} label={t('rules.draft')} />
              <p className="note">{t('rules.draftBy', { name: draft.author.name })}</p>
              {admin && draft.author.actor !== `staff:${staff.id}` ? (
                <button type="button" className="primary" onClick={() => setPublishing(draft)}>
                  {t('rules.publish')}
                </button>
              ) : (
                <p className="note">{t('rules.waitsForAnother')}</p>
              )}
            </>
          )}
        </section>
      </div>
      {admin &&
        (rows === null ? (
          <button type="button" onClick={() => setRows((published.data?.rules ?? []).map(toRow))} disabled={!published.data}>
            {t('rules.edit')}
          </button>
        ) : (
          <form
            onSubmit={async (e) => {
              e.preventDefault();
              setSaveError(null);
              try {
                await op.policies.draft(rows.map(toInput));
                setRows(null);
                await refresh();
              } catch (err) {
                setSaveError(err);
              }
            }}
            noValidate
          >
            {rows.map((r, i) => (
              <fieldset key={i} className="rule-row">
                <legend>{t('rules.rule', { n: String(i + 1) })}</legend>
                <SelectField
                  label={t('rules.actionLabel')}
                  value={r.action}
                  onChange={(v) => setRow(i, { action: v as Row['action'] })}
                  options={ACTIONS.map((a) => ({ value: a, label: t(`rules.action.${a}`) }))}
                />
                <Field label={t('rules.asset')} value={r.assetSymbol} onChange={(v) => setRow(i, { assetSymbol: v })} />
                <Field label={t('rules.organization')} value={r.organizationId} onChange={(v) => setRow(i, { organizationId: v })} />
                <Field
                  label={t('rules.from')}
                  inputMode="numeric"
                  value={r.fromAmountMinor}
                  onChange={(v) => setRow(i, { fromAmountMinor: v })}
                />
                <SelectField
                  label={t('rules.approvals')}
                  value={r.approvals}
                  onChange={(v) => setRow(i, { approvals: v })}
                  options={['1', '2', '3', '4', '5'].map((n) => ({ value: n, label: n }))}
                />
                <fieldset>
                  <legend>{t('rules.roles')}</legend>
                  {ROLES.map((role) => (
                    <label key={role} className="check">
                      <input
                        type="checkbox"
                        checked={r.roles.includes(role)}
                        onChange={(e) => setRow(i, { roles: e.target.checked ? [...r.roles, role] : r.roles.filter((x) => x !== role) })}
                      />{' '}
                      {roleWord(role)}
                    </label>
                  ))}
                </fieldset>
                <button type="button" className="danger" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                  {t('rules.removeRule', { n: String(i + 1) })}
                </button>
              </fieldset>
            ))}
            <div className="actions">
              <button
                type="button"
                onClick={() =>
                  setRows([
                    ...rows,
                    {
                      action: 'withdrawal',
                      assetSymbol: '',
                      organizationId: '',
                      fromAmountMinor: '',
                      approvals: '2',
                      roles: ['approver', 'admin'],
                    },
                  ])
                }
              >
                {t('rules.add')}
              </button>
              <button type="submit" className="primary">
                {t('rules.saveDraft')}
              </button>
              <button type="button" onClick={() => setRows(null)}>
                {t('rules.cancel')}
              </button>
            </div>
            {saveError ? <ErrorBox error={saveError} /> : null}
          </form>
        ))}
      {publishing && (
        <ConfirmDialog
          title={t('rules.publishTitle')}
          confirmLabel={t('rules.publish')}
          onClose={() => setPublishing(null)}
          onConfirm={async () => {
            await op.policies.publish(publishing.id);
            await refresh();
          }}
        >
          <p>{t('rules.publishBody', { name: publishing.author.name })}</p>
          <RuleList rules={publishing.rules} label={t('rules.draft')} />
        </ConfirmDialog>
      )}
    </section>
  );
}
