import type { OrganizationKey, OrganizationMember } from '@cambio/sdk';

type KeyRow = OrganizationKey;
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { DataTable, ErrorBox, Field, Loading, StateBadge } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { PermissionsPicker } from './PermissionsPicker.tsx';
import { t } from '../../lib/i18n.ts';

/** The organization's people and their roles; an admin invites and changes roles. */
export function MembersPanel({ id }: { id: string }) {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const members = useQuery({ queryKey: ['organization', id, 'members'], queryFn: () => op.organizations.members(id) });
  const admin = can(staff.role, 'manage') && staff.totpEnrolled;
  const [editing, setEditing] = useState<{ m: OrganizationMember; perms: string[] } | null>(null);
  return (
    <section aria-labelledby="members-title" className="panel">
      <h2 id="members-title">{t('people.members')}</h2>
      {members.isPending ? (
        <Loading what={t('people.loadingMembers')} />
      ) : members.error ? (
        <ErrorBox error={members.error} />
      ) : members.data.length === 0 ? (
        <Empty>{t('people.noMember')}</Empty>
      ) : (
        <DataTable
          caption={t('people.caption')}
          rows={members.data}
          rowKey={(m) => m.id}
          columns={[
            { label: t('orgs.name'), rowHeader: true, cell: (m) => m.name },
            { label: t('people.email'), cell: (m) => m.email },
            { label: t('people.role'), cell: (m) => m.permissions.join(', ') || t('people.noneRole') },
            {
              label: t('common.state'),
              cell: (m) => (
                <>
                  {m.status ? <StateBadge state={m.status} /> : ''}
                  {m.totpEnrolled ? t('people.twoStepOn') : ''}
                </>
              ),
            },
            ...(admin
              ? [
                  {
                    label: t('common.actions'),
                    actions: true,
                    cell: (m: OrganizationMember) => (
                      <button type="button" onClick={() => setEditing({ m, perms: [...m.permissions] })}>
                        {t('people.changeRole')}
                        <span className="visually-hidden">{t('people.of', { name: m.name })}</span>
                      </button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {admin && <InviteMember id={id} />}
      {editing && (
        <ConfirmDialog
          title={t('people.changeTitle', { name: editing.m.name })}
          confirmLabel={t('people.changeRole')}
          onClose={() => setEditing(null)}
          onConfirm={async () => {
            await op.members.update(editing.m.id, { permissions: editing.perms as never });
            await qc.invalidateQueries({ queryKey: ['organization', id, 'members'] });
          }}
        >
          <PermissionsPicker
            legend={t('people.permissions')}
            value={editing.perms}
            onChange={(perms) => setEditing({ ...editing, perms })}
          />
          <p className="effect">{t('people.changeEffect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function InviteMember({ id }: { id: string }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [perms, setPerms] = useState<string[]>(['portal:read']);
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [invitation, setInvitation] = useState<{ url: string; expiresAt: string } | null>(null);
  const ready = name.trim() !== '' && /^[^@\s]+@[^@\s]+$/.test(email.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (ready) setConfirming(true);
  };
  return (
    <div className="subpanel">
      <h3>{t('people.invite')}</h3>
      {invitation && (
        <div className="secret" role="status">
          <label htmlFor="member-invitation">{t('people.link')}</label>
          <input id="member-invitation" readOnly value={invitation.url} className="mono" />
          <button type="button" onClick={() => void navigator.clipboard?.writeText(invitation.url)}>
            {t('people.copy')}
          </button>
          <p className="warning">{t('people.shownOnce', { when: when(invitation.expiresAt) })}</p>
        </div>
      )}
      <form onSubmit={submit} noValidate>
        <div className="grid-form">
          <Field label={t('people.name')} value={name} onChange={setName} error={tried && !name.trim() ? t('orgs.enterName') : null} />
          <Field
            label={t('people.emailField')}
            type="email"
            value={email}
            onChange={setEmail}
            error={tried && !/^[^@\s]+@[^@\s]+$/.test(email.trim()) ? t('people.enterEmail') : null}
          />
        </div>
        <PermissionsPicker legend={t('people.newPerms')} value={perms} onChange={setPerms} />
        <button type="submit">{t('people.inviteMember')}</button>
      </form>
      {confirming && (
        <ConfirmDialog
          title={t('people.inviteTitle', { name: name.trim() })}
          confirmLabel={t('people.inviteMember')}
          onClose={() => setConfirming(false)}
          content={[name.trim(), email.trim(), perms]}
          onConfirm={async (idempotencyKey) => {
            const r = (await op.members.add(
              id,
              { name: name.trim(), email: email.trim(), permissions: perms as never },
              { idempotencyKey },
            )) as unknown as { invitation?: { url: string; expiresAt: string } };
            setInvitation(r.invitation ?? null);
            setName('');
            setEmail('');
            setTried(false);
            await qc.invalidateQueries({ queryKey: ['organization', id, 'members'] });
          }}
        >
          <p>{t('people.with', { email: email.trim(), perms: perms.join(', ') || t('people.noPermission') })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The organization's API keys (never the secret); an admin revokes. */
export function KeysPanel({ id }: { id: string }) {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: ['organization', id, 'keys'], queryFn: () => op.organizations.keys(id) });
  const admin = can(staff.role, 'manage') && staff.totpEnrolled;
  const [revoking, setRevoking] = useState<{ id: string; prefix: string } | null>(null);
  return (
    <section aria-labelledby="keys-title" className="panel">
      <h2 id="keys-title">{t('keys.title')}</h2>
      {keys.isPending ? (
        <Loading what={t('keys.loading')} />
      ) : keys.error ? (
        <ErrorBox error={keys.error} />
      ) : keys.data.length === 0 ? (
        <Empty>{t('keys.none')}</Empty>
      ) : (
        <DataTable
          caption={t('keys.title')}
          rows={keys.data}
          rowKey={(k) => k.id}
          columns={[
            { label: t('keys.prefix'), rowHeader: true, cell: (k) => <code>{k.prefix}</code> },
            { label: t('keys.scopes'), cell: (k) => k.scopes.join(', ') },
            { label: t('keys.issuedBy'), cell: (k) => k.issuedBy?.name ?? k.memberId ?? '' },
            { label: t('keys.lastUsed'), cell: (k) => (k.lastUsedAt ? when(k.lastUsedAt) : t('keys.never')) },
            {
              label: t('common.state'),
              cell: (k) =>
                k.revokedAt
                  ? t('keys.revoked', { when: when(k.revokedAt) })
                  : k.expiresAt && Date.parse(k.expiresAt) < Date.now()
                    ? t('keys.expired')
                    : t('keys.active'),
            },
            ...(admin
              ? [
                  {
                    label: t('common.actions'),
                    actions: true,
                    cell: (k: KeyRow) =>
                      !k.revokedAt ? (
                        <button type="button" className="danger" onClick={() => setRevoking({ id: k.id, prefix: k.prefix })}>
                          {t('keys.revoke')}
                          <span className="visually-hidden">{t('keys.key', { prefix: k.prefix })}</span>
                        </button>
                      ) : null,
                  },
                ]
              : []),
          ]}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={t('keys.revokeTitle', { prefix: revoking.prefix })}
          confirmLabel={t('keys.revokeKey')}
          danger
          onClose={() => setRevoking(null)}
          content={revoking.id}
          onConfirm={async (idempotencyKey) => {
            await op.keys.revoke(revoking.id, { idempotencyKey });
            await qc.invalidateQueries({ queryKey: ['organization', id, 'keys'] });
          }}
        >
          <p>{t('keys.revokeEffect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
