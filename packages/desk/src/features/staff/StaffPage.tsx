import type { StaffPerson, StaffRole } from '@cambio/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorBox, Field, Loading, SelectField, StateBadge } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { Link } from '../../lib/router.ts';
import { when } from '../../lib/time.ts';
import { roleDescription, roleWord, t } from '../../lib/i18n.ts';

const roles = () => (['viewer', 'auditor', 'approver', 'admin'] as StaffRole[]).map((r) => ({ value: r, label: roleDescription(r) }));

/** The operator's staff (admins only): invite, change roles, remove. */
export function StaffPage() {
  const { staff: me } = useDesk();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['staff'], queryFn: () => op.staff.list() });
  const [roleOf, setRoleOf] = useState<{ s: StaffPerson; role: StaffRole } | null>(null);
  const [removing, setRemoving] = useState<StaffPerson | null>(null);
  const active = me.totpEnrolled;
  return (
    <Page title={t('nav.staff')} intro={t('staff.intro')}>
      {list.isPending ? (
        <Loading what={t('staff.loading')} />
      ) : list.error ? (
        <ErrorBox error={list.error} />
      ) : list.data.length === 0 ? (
        <Empty>{t('staff.none')}</Empty>
      ) : (
        <table>
          <caption className="visually-hidden">{t('nav.staff')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('orgs.name')}</th>
              <th scope="col">{t('people.email')}</th>
              <th scope="col">{t('people.role')}</th>
              <th scope="col">{t('common.state')}</th>
              <th scope="col">{t('staff.since')}</th>
              <th scope="col">{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((s) => (
              <tr key={s.id}>
                <th scope="row">
                  {s.name}
                  {s.id === me.id ? t('staff.you') : ''}
                </th>
                <td>{s.email}</td>
                <td>{roleWord(s.role)}</td>
                <td>
                  <StateBadge state={s.status} />
                  {s.totpEnrolled ? t('staff.twoOn') : t('staff.twoOff')}
                </td>
                <td>{when(s.createdAt)}</td>
                <td className="row-actions">
                  <div>
                    <Link to={`/audit?actor=${encodeURIComponent(`staff:${s.id}`)}`}>
                      {t('staff.decisions')}
                      <span className="visually-hidden">{t('people.of', { name: s.name })}</span>
                    </Link>
                    {active && s.id !== me.id && s.status !== 'removed' && (
                      <>
                        <button type="button" onClick={() => setRoleOf({ s, role: s.role })}>
                          {t('people.changeRole')}
                          <span className="visually-hidden">{t('people.of', { name: s.name })}</span>
                        </button>
                        <button type="button" className="danger" onClick={() => setRemoving(s)}>
                          {t('policies.remove')}
                          <span className="visually-hidden"> {s.name}</span>
                        </button>
                      </>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {active && <Invite />}
      {roleOf && (
        <ConfirmDialog
          title={t('people.changeTitle', { name: roleOf.s.name })}
          confirmLabel={t('people.changeRole')}
          canConfirm={roleOf.role !== roleOf.s.role}
          onClose={() => setRoleOf(null)}
          onConfirm={async () => {
            await op.staff.setRole(roleOf.s.id, roleOf.role);
            await qc.invalidateQueries({ queryKey: ['staff'] });
          }}
        >
          <SelectField
            label={t('people.role')}
            value={roleOf.role}
            onChange={(v) => setRoleOf({ ...roleOf, role: v as StaffRole })}
            options={roles()}
          />
        </ConfirmDialog>
      )}
      {removing && (
        <ConfirmDialog
          title={t('staff.removeTitle', { name: removing.name })}
          confirmLabel={t('staff.removeFrom')}
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await op.staff.remove(removing.id);
            await qc.invalidateQueries({ queryKey: ['staff'] });
          }}
        >
          <p>{t('staff.removeEffect')}</p>
        </ConfirmDialog>
      )}
    </Page>
  );
}

function Invite() {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('viewer');
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [invitation, setInvitation] = useState<{ url: string; expiresAt: string } | null>(null);
  const emailOk = /^[^@\s]+@[^@\s]+$/.test(email.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (name.trim() && emailOk) setConfirming(true);
  };
  return (
    <section aria-labelledby="invite-title" className="panel">
      <h2 id="invite-title">{t('staff.invite')}</h2>
      {invitation && (
        <div className="secret" role="status">
          <label htmlFor="staff-invitation">{t('people.link')}</label>
          <input id="staff-invitation" readOnly value={invitation.url} className="mono" />
          <button type="button" onClick={() => void navigator.clipboard?.writeText(invitation.url)}>
            {t('people.copy')}
          </button>
          <p className="warning">{t('staff.shownOnce', { when: when(invitation.expiresAt) })}</p>
        </div>
      )}
      <form onSubmit={submit} noValidate className="grid-form">
        <Field label={t('orgs.name')} value={name} onChange={setName} error={tried && !name.trim() ? t('orgs.enterName') : null} />
        <Field
          label={t('people.email')}
          type="email"
          value={email}
          onChange={setEmail}
          error={tried && !emailOk ? t('people.enterEmail') : null}
        />
        <SelectField label={t('people.role')} value={role} onChange={(v) => setRole(v as StaffRole)} options={roles()} />
        <div className="actions">
          <button type="submit">{t('staff.inviteButton')}</button>
        </div>
      </form>
      {confirming && (
        <ConfirmDialog
          title={t('staff.inviteTitle', { name: name.trim(), role: roleWord(role) })}
          confirmLabel={t('staff.send')}
          onClose={() => setConfirming(false)}
          content={[name.trim(), email.trim(), role]}
          onConfirm={async (idempotencyKey) => {
            const r = await op.staff.invite({ name: name.trim(), email: email.trim(), role }, { idempotencyKey });
            setInvitation(r.invitation);
            setName('');
            setEmail('');
            setTried(false);
            await qc.invalidateQueries({ queryKey: ['staff'] });
          }}
        >
          <p>
            {email.trim()} · {roleDescription(role)}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
