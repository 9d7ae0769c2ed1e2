import type { OrganizationKey, OrganizationMember } from '@cambio/sdk';

type KeyRow = OrganizationKey;
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { DataTable, Field, StateBadge } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Empty, Loading } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { PermissionsPicker } from './PermissionsPicker.tsx';

/** The organization's people and their roles; an admin invites and changes roles. */
export function MembersPanel({ id }: { id: string }) {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const members = useQuery({ queryKey: ['organization', id, 'members'], queryFn: () => op.organizations.members(id) });
  const admin = can(staff.role, 'manage') && staff.totpEnrolled;
  const [editing, setEditing] = useState<{ m: OrganizationMember; perms: string[] } | null>(null);
  return (
    <section aria-labelledby="members-title" className="panel">
      <h2 id="members-title">Members</h2>
      {members.isPending ? <Loading what="members" /> : members.error ? <ErrorNote error={members.error} /> : members.data.length === 0 ? <Empty>No member yet.</Empty> : (
        <DataTable caption="Members and their roles" rows={members.data} rowKey={(m) => m.id} columns={[
          { label: 'Name', rowHeader: true, cell: (m) => m.name },
          { label: 'Email', cell: (m) => m.email },
          { label: 'Role', cell: (m) => m.permissions.join(', ') || 'none' },
          { label: 'State', cell: (m) => <>{m.status ? <StateBadge state={m.status} /> : ''}{m.totpEnrolled ? ' · two-step on' : ''}</> },
          ...(admin ? [{ label: 'Actions', actions: true, cell: (m: OrganizationMember) => <button type="button" onClick={() => setEditing({ m, perms: [...m.permissions] })}>Change role<span className="visually-hidden"> of {m.name}</span></button> }] : []),
        ]} />
      )}
      {admin && <InviteMember id={id} />}
      {editing && (
        <ConfirmDialog title={`Change the role of ${editing.m.name}?`} confirmLabel="Change role" onClose={() => setEditing(null)}
          onConfirm={async () => { await op.members.update(editing.m.id, { permissions: editing.perms as never }); await qc.invalidateQueries({ queryKey: ['organization', id, 'members'] }); }}>
          <PermissionsPicker legend="Permissions" value={editing.perms} onChange={(perms) => setEditing({ ...editing, perms })} />
          <p className="effect">Takes effect on the person's session and keys at their next request.</p>
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
  const submit = (e: FormEvent) => { e.preventDefault(); setTried(true); if (ready) setConfirming(true); };
  return (
    <div className="subpanel">
      <h3>Invite a member</h3>
      {invitation && (
        <div className="secret" role="status">
          <label htmlFor="member-invitation">Invitation link</label>
          <input id="member-invitation" readOnly value={invitation.url} className="mono" />
          <button type="button" onClick={() => void navigator.clipboard?.writeText(invitation.url)}>Copy</button>
          <p className="warning">Shown once; send it to the person. It expires {when(invitation.expiresAt)}.</p>
        </div>
      )}
      <form onSubmit={submit} noValidate>
        <div className="grid-form">
          <Field label="Member name" value={name} onChange={setName} error={tried && !name.trim() ? 'Enter a name.' : null} />
          <Field label="Member email" type="email" value={email} onChange={setEmail} error={tried && !/^[^@\s]+@[^@\s]+$/.test(email.trim()) ? 'Enter an email address.' : null} />
        </div>
        <PermissionsPicker legend="Permissions of the new member" value={perms} onChange={setPerms} />
        <button type="submit">Invite member</button>
      </form>
      {confirming && (
        <ConfirmDialog title={`Invite ${name.trim()}?`} confirmLabel="Invite member" onClose={() => setConfirming(false)}
          content={[name.trim(), email.trim(), perms]} onConfirm={async (idempotencyKey) => {
            const r = await op.members.add(id, { name: name.trim(), email: email.trim(), permissions: perms as never }, { idempotencyKey }) as unknown as { invitation?: { url: string; expiresAt: string } };
            setInvitation(r.invitation ?? null);
            setName(''); setEmail(''); setTried(false);
            await qc.invalidateQueries({ queryKey: ['organization', id, 'members'] });
          }}>
          <p>{email.trim()} with {perms.join(', ') || 'no permission'}.</p>
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
      <h2 id="keys-title">API keys</h2>
      {keys.isPending ? <Loading what="keys" /> : keys.error ? <ErrorNote error={keys.error} /> : keys.data.length === 0 ? <Empty>No key.</Empty> : (
        <DataTable caption="API keys" rows={keys.data} rowKey={(k) => k.id} columns={[
          { label: 'Prefix', rowHeader: true, cell: (k) => <code>{k.prefix}</code> },
          { label: 'Scopes', cell: (k) => k.scopes.join(', ') },
          { label: 'Issued by', cell: (k) => k.issuedBy?.name ?? k.memberId ?? '' },
          { label: 'Last used', cell: (k) => (k.lastUsedAt ? when(k.lastUsedAt) : 'never') },
          { label: 'State', cell: (k) => (k.revokedAt ? `Revoked ${when(k.revokedAt)}` : k.expiresAt && Date.parse(k.expiresAt) < Date.now() ? 'Expired' : 'Active') },
          ...(admin ? [{ label: 'Actions', actions: true, cell: (k: KeyRow) => (!k.revokedAt ? <button type="button" className="danger" onClick={() => setRevoking({ id: k.id, prefix: k.prefix })}>Revoke<span className="visually-hidden"> key {k.prefix}</span></button> : null) }] : []),
        ]} />
      )}
      {revoking && (
        <ConfirmDialog title={`Revoke the key ${revoking.prefix}?`} confirmLabel="Revoke key" danger onClose={() => setRevoking(null)}
          content={revoking.id} onConfirm={async (idempotencyKey) => { await op.keys.revoke(revoking.id, { idempotencyKey }); await qc.invalidateQueries({ queryKey: ['organization', id, 'keys'] }); }}>
          <p>Every program using it is refused from its next request. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
