import type { Organization } from '@cambio/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorBox, Loading, SelectField, StateBadge } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { Link } from '../../lib/router.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { BalancesPanel, LedgerPanel, RequestsPanel } from './OrganizationBooks.tsx';
import { KeysPanel, MembersPanel } from './OrganizationPeople.tsx';
import { LimitsPanel } from './LimitsPanel.tsx';
import { AdjustmentPanel, DestinationsPanel } from './OrganizationMoney.tsx';
import { StatementsPanel } from './OrganizationStatements.tsx';
import { ValuationPanel } from './OrganizationValuation.tsx';
import { t } from '../../lib/i18n.ts';

export const orgKey = (id: string) => ['organization', id] as const;

/** One organization: status and limits, its people and keys, its balances, requests and ledger. */
export function OrganizationPage({ id }: { id: string }) {
  const { staff } = useDesk();
  const org = useQuery({ queryKey: orgKey(id), queryFn: () => op.organizations.get(id) });
  if (org.isPending) return <Loading what={t('org.theOrganization')} />;
  if (org.error)
    return (
      <Page title={t('common.organization')}>
        <ErrorBox error={org.error} />
      </Page>
    );
  const o = org.data;
  return (
    <Page
      title={o.name}
      intro={
        <>
          <code>{o.id}</code> · {t('org.created', { when: when(o.createdAt) })} ·{' '}
          <Link to={`/audit?organizationId=${encodeURIComponent(o.id)}`}>{t('org.auditOf')}</Link>
        </>
      }
    >
      <StatusPanel org={o} />
      <LimitsPanel org={o} />
      <BalancesPanel id={o.id} />
      <RequestsPanel id={o.id} />
      <ValuationPanel id={o.id} />
      <StatementsPanel id={o.id} />
      <DestinationsPanel id={o.id} />
      {can(staff.role, 'manage') && staff.totpEnrolled && <AdjustmentPanel id={o.id} name={o.name} />}
      <MembersPanel id={o.id} />
      <KeysPanel id={o.id} />
      <LedgerPanel id={o.id} />
    </Page>
  );
}

function StatusPanel({ org }: { org: Organization }) {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const [status, setStatus] = useState<string>(org.status);
  const [confirming, setConfirming] = useState(false);
  const admin = can(staff.role, 'manage') && staff.totpEnrolled;
  return (
    <section aria-labelledby="status-title" className="panel">
      <h2 id="status-title">{t('org.status')}</h2>
      <p>
        <StateBadge state={org.status} /> ·{' '}
        {org.canOperate ? t('org.canOperate') : org.limits === null ? t('org.noLimits') : t('org.notActive')}
      </p>
      {admin && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (status !== org.status) setConfirming(true);
          }}
        >
          <SelectField
            label={t('org.newStatus')}
            value={status}
            onChange={setStatus}
            options={[
              { value: 'draft', label: t('org.draft') },
              { value: 'active', label: t('org.active') },
              { value: 'suspended', label: t('org.suspended') },
            ]}
          />
          <button type="submit" disabled={status === org.status}>
            {t('org.changeStatus')}
          </button>
        </form>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('org.setStatus', { name: org.name, status })}
          confirmLabel={t('org.changeStatus')}
          danger={status === 'suspended'}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            await op.organizations.update(org.id, { status: status as Organization['status'] });
            await qc.invalidateQueries({ queryKey: orgKey(org.id) });
          }}
        >
          <p>{status === 'active' ? t('org.activeEffect') : t('org.inactiveEffect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
