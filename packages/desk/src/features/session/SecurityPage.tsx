import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field, useActionKey } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Empty, Loading, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { when } from '../../lib/time.ts';
import { TotpEnrol } from './TotpEnrol.tsx';

/** The signed-in person's own security: two-step sign-in, password, personal tokens for scripts. */
export function SecurityPage() {
  const { staff } = useDesk();
  return (
    <Page title="Your security" intro={`${staff.name} · ${staff.email} · ${staff.role}`}>
      {/* Always mounted: the recovery codes stay on screen after the session learns TOTP is on. */}
      <TotpEnrol enrolled={staff.totpEnrolled} />
      <PasswordChange />
      <Tokens />
    </Page>
  );
}

function PasswordChange() {
  const passwordKey = useActionKey();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true); setError(null); setDone(false);
    try { const body = { currentPassword: current, newPassword: next }; await passwordKey.run(body, (idempotencyKey) => op.session.changePassword(body, { idempotencyKey })); setDone(true); setCurrent(''); setNext(''); } catch (err) { setError(err); } finally { setBusy(false); }
  };
  return (
    <section aria-labelledby="pw-title" className="panel">
      <h2 id="pw-title">Password</h2>
      <form onSubmit={submit} noValidate>
        <ErrorNote error={error} />
        {done && <p role="status" className="ok-note">Password changed; your other sessions have ended.</p>}
        <Field label="Current password" type="password" autoComplete="current-password" value={current} onChange={setCurrent} />
        <Field label="New password" type="password" autoComplete="new-password" value={next} onChange={setNext} />
        <button type="submit" disabled={busy}>Change password</button>
      </form>
    </section>
  );
}

function Tokens() {
  const qc = useQueryClient();
  const tokens = useQuery({ queryKey: ['tokens'], queryFn: () => op.tokens.list() });
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const issueKey = useActionKey();
  const issue = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !name.trim()) return;
    setBusy(true); setError(null);
    try { const body = { name: name.trim() }; const t = await issueKey.run(body, (idempotencyKey) => op.tokens.issue(body, { idempotencyKey })); setIssued(t.token); setName(''); await qc.invalidateQueries({ queryKey: ['tokens'] }); } catch (err) { setError(err); } finally { setBusy(false); }
  };
  return (
    <section aria-labelledby="tokens-title" className="panel">
      <h2 id="tokens-title">Personal tokens</h2>
      <p>A token acts as you on <code>/operator/v1</code> (<code>Authorization: Bearer ops_…</code>) with your role, for scripts and the CLI.</p>
      {issued && (
        <div className="secret" role="status">
          <label htmlFor="new-token">Token</label>
          <input id="new-token" readOnly value={issued} className="mono" />
          <button type="button" onClick={() => void navigator.clipboard?.writeText(issued)}>Copy</button>
          <p className="warning">Shown once. Store it now; the desk cannot show it again.</p>
        </div>
      )}
      <form onSubmit={issue} className="inline-form" noValidate>
        <ErrorNote error={error} />
        <Field label="Token name" value={name} onChange={setName} hint="What the token is for, e.g. nightly reconciliation script." />
        <button type="submit" disabled={busy || !name.trim()}>Issue token</button>
      </form>
      {tokens.isPending ? <Loading what="tokens" /> : tokens.error ? <ErrorNote error={tokens.error} /> : tokens.data.length === 0 ? <Empty>No tokens.</Empty> : (
        <table>
          <caption className="visually-hidden">Your tokens</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {tokens.data.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td><td>{when(t.createdAt)}</td><td>{t.lastUsedAt ? when(t.lastUsedAt) : 'never'}</td>
                <td>{t.revokedAt ? `Revoked ${when(t.revokedAt)}` : 'Active'}</td>
                <td>{!t.revokedAt && <button type="button" onClick={() => setRevoking({ id: t.id, name: t.name })}>Revoke<span className="visually-hidden"> {t.name}</span></button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking && (
        <ConfirmDialog title={`Revoke the token ${revoking.name}?`} confirmLabel="Revoke token" danger onClose={() => setRevoking(null)}
          content={revoking.id} onConfirm={async (idempotencyKey) => { await op.tokens.revoke(revoking.id, { idempotencyKey }); await qc.invalidateQueries({ queryKey: ['tokens'] }); }}>
          <p>Scripts using it stop at their next request.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
