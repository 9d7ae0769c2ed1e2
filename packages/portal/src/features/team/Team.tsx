import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Invitation } from '@cambio/sdk';
import { useState, type FormEvent } from 'react';
import { DataTable, ErrorBox, Field, Loading, useActionKey } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { presetOf, RolePicker } from '../../components/RolePicker.tsx';
import { permissionWord, type MessageKey } from '../../lib/i18n.ts';
import { ConfirmInline, CopyButton, DateTime, Notice } from '../../components/ui.tsx';

function InviteForm() {
  const { sdk, t, session } = usePortal();
  const act = useActionKey();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [permissions, setPermissions] = useState<string[]>(['portal:read']);
  const [invited, setInvited] = useState<{ name: string; invitation: Invitation } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setInvited(null);
    try {
      const body = { name: name.trim(), email: email.trim(), permissions };
      const r = await act.run(body, (idempotencyKey) => sdk.team.invite(body, { idempotencyKey }));
      setInvited({ name: r.member.name, invitation: r.invitation });
      setName('');
      setEmail('');
      await qc.invalidateQueries({ queryKey: ['team'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="card">
      <summary>{t('team.invite')}</summary>
      <ErrorBox error={error} fields={{ email: t('team.email'), name: t('team.name') }} />
      {invited && (
        <Notice tone="success">
          <p>{t('team.invited', { name: invited.name })}</p>
          <Field label={t('team.invitationLink')} value={invited.invitation.url} onChange={() => {}} readOnly />
          <CopyButton text={invited.invitation.url} label={t('team.invitationLink')} />
        </Notice>
      )}
      <form onSubmit={submit} noValidate>
        <Field label={t('team.name')} value={name} onChange={setName} required autoComplete="off" />
        <Field label={t('team.email')} type="email" value={email} onChange={setEmail} required autoComplete="off" />
        <RolePicker legend={t('roles.preset')} own={session?.member.permissions ?? []} chosen={permissions} onChange={setPermissions} />
        <button type="submit" disabled={busy}>
          {t('team.inviteSubmit')}
        </button>
      </form>
    </details>
  );
}

/** Change a member's role: only permissions one holds oneself are offered (the server checks ⊆ too). */
function RoleEditor({ id, name, current, onDone }: { id: string; name: string; current: string[]; onDone: () => void }) {
  const { sdk, t, session } = usePortal();
  const act = useActionKey();
  const qc = useQueryClient();
  const own = session?.member.permissions ?? [];
  const [chosen, setChosen] = useState(current);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await act.run([id, chosen], (idempotencyKey) => sdk.team.setPermissions(id, chosen, { idempotencyKey }));
      await qc.invalidateQueries({ queryKey: ['team'] });
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={save} noValidate className="card">
      <ErrorBox error={error} />
      <RolePicker
        legend={t('team.permissionsOf', { name })}
        own={own}
        chosen={chosen.filter((p) => own.includes(p))}
        onChange={(v) => setChosen([...v, ...current.filter((p) => !own.includes(p))])}
      />
      <button type="submit" disabled={busy}>
        {t('team.saveRole')}
      </button>{' '}
      <button type="button" className="secondary" onClick={onDone}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

/** Members and their roles; invite, change roles and remove (portal:team), never oneself, never wider than one's role. */
export function Team() {
  const { sdk, t, can, session, lang } = usePortal();
  const removeKey = useActionKey();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['team'], queryFn: () => sdk.team.members() });
  const [removing, setRemoving] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [resending, setResending] = useState<string | null>(null);
  const [resent, setResent] = useState<{ name: string; invitation: Invitation } | null>(null);
  const resendKey = useActionKey();
  const [error, setError] = useState<unknown>(null);
  const mayManage = can('portal:team');
  // Never oneself, never one already removed.
  const manageable = (m: { id: string; status: string }) => mayManage && m.id !== session?.member.id && m.status !== 'removed';
  const remove = async (id: string) => {
    setError(null);
    try {
      await removeKey.run(id, (idempotencyKey) => sdk.team.remove(id, { idempotencyKey }));
      setRemoving(null);
      await qc.invalidateQueries({ queryKey: ['team'] });
    } catch (err) {
      setError(err);
    }
  };
  const resend = async (id: string) => {
    setError(null);
    setResent(null);
    try {
      const r = await resendKey.run(['resend', id], (idempotencyKey) => sdk.team.resendInvitation(id, { idempotencyKey }));
      setResent({ name: r.member.name, invitation: r.invitation });
      await qc.invalidateQueries({ queryKey: ['team'] });
    } catch (err) {
      setError(err);
    } finally {
      setResending(null);
    }
  };
  return (
    <>
      <h1>{t('team.title')}</h1>
      <ErrorBox error={error ?? list.error} />
      {!mayManage && <Notice>{t('role.readOnly')}</Notice>}
      {mayManage && <InviteForm />}
      {mayManage && (list.data ?? []).some((m) => m.status === 'invited') && (
        <section aria-labelledby="pending-h">
          <h2 id="pending-h">{t('team.pending')}</h2>
          <p className="hint">{t('team.pendingHint')}</p>
          {resent && (
            <Notice tone="success">
              <p>{t('team.resent', { name: resent.name })}</p>
              <Field label={t('team.invitationLink')} value={resent.invitation.url} onChange={() => {}} readOnly />
              <CopyButton text={resent.invitation.url} label={t('team.invitationLink')} />
            </Notice>
          )}
          <DataTable
            caption={t('team.pending')}
            rows={(list.data ?? []).filter((m) => m.status === 'invited')}
            rowKey={(m) => m.id}
            columns={[
              { label: t('team.name'), rowHeader: true, cell: (m) => m.name },
              { label: t('team.email'), cell: (m) => m.email },
              { label: t('roles.preset'), cell: (m) => t(`roles.${presetOf(m.permissions)}` as MessageKey) },
              { label: t('common.created'), cell: (m) => <DateTime iso={m.createdAt} /> },
              {
                label: t('orders.actions'),
                actions: true,
                cell: (m) =>
                  revoking === m.id ? (
                    <ConfirmInline
                      question={t('team.confirmRevokeInvitation', { name: m.name })}
                      confirm={t('team.revokeInvitationSubmit')}
                      back={t('orders.keep')}
                      onConfirm={() => void remove(m.id).then(() => setRevoking(null))}
                      onCancel={() => setRevoking(null)}
                    />
                  ) : resending === m.id ? (
                    <ConfirmInline
                      question={t('team.confirmResendInvitation', { name: m.name })}
                      confirm={t('team.resendInvitationSubmit')}
                      back={t('orders.keep')}
                      onConfirm={() => void resend(m.id)}
                      onCancel={() => setResending(null)}
                    />
                  ) : (
                    <>
                      <button
                        type="button"
                        className="secondary"
                        aria-label={t('team.resendInvitation', { name: m.name })}
                        onClick={() => {
                          setRevoking(null);
                          setResending(m.id);
                        }}
                      >
                        {t('team.resendButton')}
                      </button>{' '}
                      <button
                        type="button"
                        className="secondary"
                        aria-label={t('team.revokeInvitation', { name: m.name })}
                        onClick={() => {
                          setResending(null);
                          setRevoking(m.id);
                        }}
                      >
                        {t('keys.revokeButton')}
                      </button>
                    </>
                  ),
              },
            ]}
          />
        </section>
      )}
      <h2>{t('team.members')}</h2>
      {list.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={t('team.title')}
          rows={list.data ?? []}
          rowKey={(m) => m.id}
          columns={[
            {
              label: t('team.name'),
              rowHeader: true,
              cell: (m) => (
                <>
                  {m.name}
                  {m.id === session?.member.id && <span className="muted"> ({t('team.you')})</span>}
                </>
              ),
            },
            { label: t('team.email'), cell: (m) => m.email },
            {
              label: t('team.permissions'),
              cell: (m) => (
                <>
                  {editing === m.id ? (
                    <RoleEditor id={m.id} name={m.name} current={m.permissions} onDone={() => setEditing(null)} />
                  ) : (
                    <>
                      <strong>{t(`roles.${presetOf(m.permissions)}` as MessageKey)}</strong>
                      <br />
                      <span className="small muted">{m.permissions.map((p) => permissionWord(lang, p)).join(', ')}</span>
                    </>
                  )}
                  {manageable(m) && editing !== m.id && (
                    <>
                      {' '}
                      <button type="button" className="link" onClick={() => setEditing(m.id)}>
                        {t('team.changeRole', { name: m.name })}
                      </button>
                    </>
                  )}
                </>
              ),
            },
            {
              label: t('team.status'),
              cell: (m) => (
                <>
                  {t(`team.status.${m.status}`)}
                  {m.totpEnrolled && <span className="small"> · {t('team.totp')}</span>}
                  {manageable(m) && (
                    <>
                      {' '}
                      {removing === m.id ? (
                        <ConfirmInline
                          question={t('team.confirmRemove', { name: m.name })}
                          confirm={t('team.confirmRemoveSubmit')}
                          onConfirm={() => void remove(m.id)}
                          onCancel={() => setRemoving(null)}
                        />
                      ) : (
                        <button type="button" className="secondary" onClick={() => setRemoving(m.id)}>
                          {t('team.remove', { name: m.name })}
                        </button>
                      )}
                    </>
                  )}
                </>
              ),
            },
            { label: t('common.created'), cell: (m) => <DateTime iso={m.createdAt} /> },
          ]}
        />
      )}
    </>
  );
}
