import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ChangePassword, DataTable, ErrorBox, Field, Loading, useActionKey } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { when } from '../../lib/time.ts';
import { roleWord, t } from '../../lib/i18n.ts';
import { TotpEnrol } from './TotpEnrol.tsx';

/** The signed-in person's own security: two-step sign-in, password, personal tokens for scripts. */
export function SecurityPage() {
  const { staff } = useDesk();
  return (
    <Page title={t('app.security')} intro={`${staff.name} · ${staff.email} · ${roleWord(staff.role)}`}>
      {/* Always mounted: the recovery codes stay on screen after the session learns TOTP is on. */}
      <TotpEnrol enrolled={staff.totpEnrolled} />
      <PasswordChange />
      <Tokens />
    </Page>
  );
}

function PasswordChange() {
  return (
    <ChangePassword
      className="panel"
      texts={{
        title: t('security.password'),
        current: t('security.current'),
        next: t('security.new'),
        submit: t('security.change'),
        changed: t('security.changed'),
      }}
      change={(body, idempotencyKey) => op.session.changePassword(body, { idempotencyKey })}
      done={(text) => (
        <p role="status" className="ok-note">
          {text}
        </p>
      )}
    />
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
    setBusy(true);
    setError(null);
    try {
      const body = { name: name.trim() };
      const issuedToken = await issueKey.run(body, (idempotencyKey) => op.tokens.issue(body, { idempotencyKey }));
      setIssued(issuedToken.token);
      setName('');
      await qc.invalidateQueries({ queryKey: ['tokens'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="tokens-title" className="panel">
      <h2 id="tokens-title">{t('security.tokens')}</h2>
      <p>
        {t('security.tokensBefore')} <code>/operator/v1</code> (<code>Authorization: Bearer ops_…</code>) {t('security.tokensAfter')}
      </p>
      {issued && (
        <div className="secret" role="status">
          <label htmlFor="new-token">{t('security.token')}</label>
          <input id="new-token" readOnly value={issued} className="mono" />
          <button type="button" onClick={() => void navigator.clipboard?.writeText(issued)}>
            {t('security.copy')}
          </button>
          <p className="warning">{t('security.shownOnce')}</p>
        </div>
      )}
      <form onSubmit={issue} className="inline-form" noValidate>
        <ErrorBox error={error} />
        <Field label={t('security.tokenName')} value={name} onChange={setName} hint={t('security.tokenHint')} />
        <button type="submit" disabled={busy || !name.trim()}>
          {t('security.issue')}
        </button>
      </form>
      {tokens.isPending ? (
        <Loading what={t('security.loadingTokens')} />
      ) : tokens.error ? (
        <ErrorBox error={tokens.error} />
      ) : tokens.data.length === 0 ? (
        <Empty>{t('security.noTokens')}</Empty>
      ) : (
        // One card per token on a phone: a wide table of tokens would scroll with nothing to focus once all are revoked.
        <DataTable
          caption={t('security.tokensCaption')}
          rows={tokens.data}
          rowKey={(k) => k.id}
          columns={[
            { label: t('security.name'), rowHeader: true, cell: (k) => k.name },
            { label: t('common.created'), cell: (k) => when(k.createdAt) },
            { label: t('security.lastUsed'), cell: (k) => (k.lastUsedAt ? when(k.lastUsedAt) : t('security.never')) },
            {
              label: t('common.state'),
              cell: (k) => (k.revokedAt ? t('security.revokedAt', { when: when(k.revokedAt) }) : t('security.active')),
            },
            {
              label: t('common.actions'),
              actions: true,
              cell: (k) =>
                !k.revokedAt && (
                  <button type="button" onClick={() => setRevoking({ id: k.id, name: k.name })}>
                    {t('security.revoke')}
                    <span className="visually-hidden"> {k.name}</span>
                  </button>
                ),
            },
          ]}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={t('security.revokeTitle', { name: revoking.name })}
          confirmLabel={t('security.revokeToken')}
          danger
          onClose={() => setRevoking(null)}
          content={revoking.id}
          onConfirm={async (idempotencyKey) => {
            await op.tokens.revoke(revoking.id, { idempotencyKey });
            await qc.invalidateQueries({ queryKey: ['tokens'] });
          }}
        >
          <p>{t('security.revokeEffect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
