import type { StaffPerson, StaffRole } from '@cambio/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field, SelectField, StateBadge } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Empty, Loading, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { Link } from '../../lib/router.ts';
import { ROLE_WORDS } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';

const ROLES = (['viewer', 'approver', 'admin'] as StaffRole[]).map((r) => ({ value: r, label: ROLE_WORDS[r] }));

/** The operator's staff (admins only): invite, change roles, remove. */
export function StaffPage() {
  const { staff: me } = useDesk();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['staff'], queryFn: () => op.staff.list() });
  const [roleOf, setRoleOf] = useState<{ s: StaffPerson; role: StaffRole } | null>(null);
  const [removing, setRemoving] = useState<StaffPerson | null>(null);
  const active = me.totpEnrolled;
  return (
    <Page title="Staff" intro="The people of the operator and what each may do. Every change is recorded in the audit trail.">
      {list.isPending ? <Loading what="staff" /> : list.error ? <ErrorNote error={list.error} /> : list.data.length === 0 ? <Empty>No staff.</Empty> : (
        <table>
          <caption className="visually-hidden">Staff</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">State</th><th scope="col">Since</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {list.data.map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.name}{s.id === me.id ? ' (you)' : ''}</th><td>{s.email}</td><td>{s.role}</td>
                <td><StateBadge state={s.status} />{s.totpEnrolled ? ' · two-step on' : ' · two-step off'}</td>
                <td>{when(s.createdAt)}</td>
                <td className="row-actions"><div>
                  <Link to={`/audit?actor=${encodeURIComponent(`staff:${s.id}`)}`}>Decisions<span className="visually-hidden"> of {s.name}</span></Link>
                  {active && s.id !== me.id && s.status !== 'removed' && (
                    <>
                      <button type="button" onClick={() => setRoleOf({ s, role: s.role })}>Change role<span className="visually-hidden"> of {s.name}</span></button>
                      <button type="button" className="danger" onClick={() => setRemoving(s)}>Remove<span className="visually-hidden"> {s.name}</span></button>
                    </>
                  )}
                </div></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {active && <Invite />}
      {roleOf && (
        <ConfirmDialog title={`Change the role of ${roleOf.s.name}?`} confirmLabel="Change role" canConfirm={roleOf.role !== roleOf.s.role} onClose={() => setRoleOf(null)}
          onConfirm={async () => { await op.staff.setRole(roleOf.s.id, roleOf.role); await qc.invalidateQueries({ queryKey: ['staff'] }); }}>
          <SelectField label="Role" value={roleOf.role} onChange={(v) => setRoleOf({ ...roleOf, role: v as StaffRole })} options={ROLES} />
        </ConfirmDialog>
      )}
      {removing && (
        <ConfirmDialog title={`Remove ${removing.name}?`} confirmLabel="Remove from staff" danger onClose={() => setRemoving(null)}
          onConfirm={async () => { await op.staff.remove(removing.id); await qc.invalidateQueries({ queryKey: ['staff'] }); }}>
          <p>Their sessions and tokens stop at once. Their past decisions stay in the audit trail.</p>
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
  const submit = (e: FormEvent) => { e.preventDefault(); setTried(true); if (name.trim() && emailOk) setConfirming(true); };
  return (
    <section aria-labelledby="invite-title" className="panel">
      <h2 id="invite-title">Invite a person</h2>
      {invitation && (
        <div className="secret" role="status">
          <label htmlFor="staff-invitation">Invitation link</label>
          <input id="staff-invitation" readOnly value={invitation.url} className="mono" />
          <button type="button" onClick={() => void navigator.clipboard?.writeText(invitation.url)}>Copy</button>
          <p className="warning">Shown once; send it to the person. It expires {when(invitation.expiresAt)}. They choose a password and set up two-step sign-in.</p>
        </div>
      )}
      <form onSubmit={submit} noValidate className="grid-form">
        <Field label="Name" value={name} onChange={setName} error={tried && !name.trim() ? 'Enter a name.' : null} />
        <Field label="Email" type="email" value={email} onChange={setEmail} error={tried && !emailOk ? 'Enter an email address.' : null} />
        <SelectField label="Role" value={role} onChange={(v) => setRole(v as StaffRole)} options={ROLES} />
        <div className="actions"><button type="submit">Invite</button></div>
      </form>
      {confirming && (
        <ConfirmDialog title={`Invite ${name.trim()} as ${role}?`} confirmLabel="Send invitation" onClose={() => setConfirming(false)}
          content={[name.trim(), email.trim(), role]} onConfirm={async (idempotencyKey) => {
            const r = await op.staff.invite({ name: name.trim(), email: email.trim(), role }, { idempotencyKey });
            setInvitation(r.invitation); setName(''); setEmail(''); setTried(false);
            await qc.invalidateQueries({ queryKey: ['staff'] });
          }}>
          <p>{email.trim()} · {ROLE_WORDS[role]}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
