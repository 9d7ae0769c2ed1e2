import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { StaffRequest } from '@cambio/sdk';
import { Amount, ErrorBox } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty } from '../../components/Section.tsx';
import { TextArea } from '../../components/TextArea.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { can } from '../../lib/roles.ts';
import { t } from '../../lib/i18n.ts';

/**
 * Adjustments and attributions that a rule of the operator's policy holds for two or more approvals
 * (docs/controls.md): each with who asked, who approved so far, Approve and Reject for a person who decides.
 */
export function StaffRequestsPanel() {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const waiting = useQuery({ queryKey: ['staff-requests'], queryFn: () => op.policies.requests('pending_approval') });
  const decides = can(staff.role, 'decide') && staff.totpEnrolled;
  const [deciding, setDeciding] = useState<{ verb: 'approve' | 'reject'; r: StaffRequest } | null>(null);
  const [reason, setReason] = useState('');

  return (
    <section aria-labelledby="staff-requests-title" className="panel">
      <h2 id="staff-requests-title">{t('requests.title')}</h2>
      {waiting.error ? (
        <ErrorBox error={waiting.error} />
      ) : !waiting.data ? null : waiting.data.length === 0 ? (
        <Empty>{t('requests.none')}</Empty>
      ) : (
        <ul>
          {waiting.data.map((r) => (
            <li key={r.id} data-request={r.id}>
              {t(r.kind === 'adjustment' ? 'requests.adjustment' : 'requests.attribution', { org: r.organizationId })}{' '}
              <Amount minor={r.amountMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} />
              {r.note ? ` — ${r.note}` : ''}.{' '}
              {t('requests.state', {
                given: String(r.approvals.length),
                required: String(r.approvalsRequired),
                by: r.requestedBy.name,
                approvers: r.approvals.map((a) => a.name).join(', ') || '—',
              })}
              {decides && (
                <>
                  {' '}
                  <button type="button" className="primary" onClick={() => setDeciding({ verb: 'approve', r })}>
                    {t('requests.approve')}
                    <span className="visually-hidden"> {r.id}</span>
                  </button>
                  <button type="button" className="danger" onClick={() => setDeciding({ verb: 'reject', r })}>
                    {t('requests.reject')}
                    <span className="visually-hidden"> {r.id}</span>
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {deciding && (
        <ConfirmDialog
          title={t(deciding.verb === 'approve' ? 'requests.approveTitle' : 'requests.rejectTitle')}
          confirmLabel={t(deciding.verb === 'approve' ? 'requests.approve' : 'requests.reject')}
          danger={deciding.verb === 'reject'}
          onClose={() => setDeciding(null)}
          onConfirm={async (idempotencyKey) => {
            if (deciding.verb === 'approve') await op.policies.approveRequest(deciding.r.id, { idempotencyKey });
            else await op.policies.rejectRequest(deciding.r.id, reason.trim() || null, { idempotencyKey });
            setReason('');
            await qc.invalidateQueries({ queryKey: ['staff-requests'] });
          }}
        >
          <p>
            {t(deciding.verb === 'approve' ? 'requests.approveBody' : 'requests.rejectBody', {
              given: String(deciding.r.approvals.length + 1),
              required: String(deciding.r.approvalsRequired),
            })}
          </p>
          {deciding.verb === 'reject' && <TextArea label={t('requests.reason')} value={reason} onChange={setReason} />}
        </ConfirmDialog>
      )}
    </section>
  );
}
