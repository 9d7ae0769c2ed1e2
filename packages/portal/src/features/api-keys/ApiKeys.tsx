import { SCOPES } from '@cambio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssuedApiKey } from '@cambio/sdk';
import { useState, type FormEvent } from 'react';
import { DataTable, ErrorBox, Field, Loading, useActionKey } from '@cambio/web-kit';
import { permissionWord } from '../../lib/i18n.ts';
import { usePortal } from '../../lib/portal-context.ts';
import { ScopePicker } from '../../components/ScopePicker.tsx';
import { ConfirmInline, DateTime, Notice, SecretShownOnce } from '../../components/ui.tsx';

/** An IPv4 address (four numbers up to 255) or an IPv6 one (hex groups and colons, `::` at most once): what the server accepts. */
export function isIpAddress(text: string): boolean {
  const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
  if (v4.test(text)) return true;
  if (!/^[0-9a-fA-F:]+$/.test(text) || text.length > 39 || !text.includes(':')) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')));
  if (groups.some((g) => g.length < 1 || g.length > 4)) return false;
  return halves.length === 2 ? groups.length < 8 : groups.length === 8;
}

/** The new key, shown once, read-only, with a copy button and a warning (docs/design/people-and-apps.md: field `API key`). */
function IssueForm({ onIssued, onCancel }: { onIssued: (k: IssuedApiKey) => void; onCancel: () => void }) {
  const { sdk, t, session } = usePortal();
  const act = useActionKey();
  // What a key can carry (the contract's scopes), no wider than one's role; portal:team and portal:api_keys stay with people.
  const own = session?.member.permissions ?? [];
  const offered = (SCOPES as readonly string[]).filter((s) => own.includes(s));
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [ips, setIps] = useState('');
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const allowedIps = ips
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const badIp = allowedIps.find((ip) => !isIpAddress(ip));
  const ipError = touched && badIp !== undefined ? t('keys.badIp', { ip: badIp }) : null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (scopes.length === 0 || badIp !== undefined) return;
    setBusy(true);
    setError(null);
    try {
      const body = {
        scopes,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(expires ? { expiresAt: new Date(`${expires}T23:59:59`).toISOString() } : {}),
        ...(allowedIps.length ? { allowedIps } : {}),
      };
      onIssued(await act.run(body, (idempotencyKey) => sdk.apiKeys.issue(body, { idempotencyKey })));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate className="card">
      <ErrorBox
        error={error}
        fields={{ name: t('keys.name'), allowedIps: t('keys.allowedIps'), expiresAt: t('keys.expiresAt'), scopes: t('keys.scopes') }}
      />
      <Field label={t('keys.name')} hint={t('keys.nameHint')} value={name} onChange={setName} maxLength={80} autoComplete="off" />
      <ScopePicker
        legend={t('keys.scopes')}
        offered={offered}
        chosen={scopes}
        onChange={setScopes}
        error={touched && scopes.length === 0 ? t('keys.pickScope') : null}
      />
      <Field label={t('keys.expiresAt')} type="date" value={expires} onChange={setExpires} />
      <Field label={t('keys.allowedIps')} value={ips} onChange={setIps} autoComplete="off" error={ipError} />
      <button type="submit" disabled={busy}>
        {t('keys.issue')}
      </button>{' '}
      <button type="button" className="secondary" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

export function ApiKeys() {
  const { sdk, t, can, lang } = usePortal();
  const revokeKey = useActionKey();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['api-keys'], queryFn: () => sdk.apiKeys.list() });
  const [issuing, setIssuing] = useState(false);
  const [issued, setIssued] = useState<IssuedApiKey | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const mayIssue = can('portal:api_keys');

  const revoke = async (id: string) => {
    setError(null);
    try {
      await revokeKey.run(id, (idempotencyKey) => sdk.apiKeys.revoke(id, { idempotencyKey }));
      setRevoking(null);
      await qc.invalidateQueries({ queryKey: ['api-keys'] });
    } catch (err) {
      setError(err);
    }
  };

  return (
    <>
      <h1>{t('keys.title')}</h1>
      <ErrorBox error={error ?? list.error} />
      {!mayIssue && <Notice>{t('role.readOnly')}</Notice>}
      {issued && (
        <SecretShownOnce
          label={t('keys.apiKey')}
          secret={issued.key}
          warning={t('keys.shownOnce')}
          copyLabel={t('keys.apiKey')}
          onDone={() => setIssued(null)}
        />
      )}
      {mayIssue && !issuing && !issued && (
        <button type="button" onClick={() => setIssuing(true)}>
          {t('keys.issueKey')}
        </button>
      )}
      {mayIssue && issuing && (
        <IssueForm
          onCancel={() => setIssuing(false)}
          onIssued={(k) => {
            setIssued(k);
            setIssuing(false);
            void qc.invalidateQueries({ queryKey: ['api-keys'] });
          }}
        />
      )}
      {list.isPending ? (
        <Loading />
      ) : (list.data ?? []).length === 0 ? (
        <p>{t('common.none')}</p>
      ) : (
        <DataTable
          caption={t('keys.title')}
          rows={list.data ?? []}
          rowKey={(k) => k.id}
          columns={[
            { label: t('keys.nameColumn'), cell: (k) => k.name ?? '—' },
            { label: t('keys.prefix'), cell: (k) => <code>{k.prefix}</code> },
            { label: t('keys.scopes'), cell: (k) => k.scopes.map((sc) => permissionWord(lang, sc)).join(', ') },
            { label: t('keys.issuedBy'), cell: (k) => k.issuedBy?.name ?? '—' },
            { label: t('common.created'), cell: (k) => <DateTime iso={k.createdAt} /> },
            { label: t('keys.lastUsed'), cell: (k) => (k.lastUsedAt ? <DateTime iso={k.lastUsedAt} /> : t('keys.never')) },
            { label: t('keys.expires'), cell: (k) => (k.expiresAt ? <DateTime iso={k.expiresAt} /> : t('keys.never')) },
            {
              label: t('common.state'),
              cell: (k) =>
                k.revokedAt ? (
                  <span className="badge badge-rejected">{t('keys.revoked')}</span>
                ) : (
                  <>
                    <span className="badge badge-completed">{t('keys.active')}</span>{' '}
                    {mayIssue &&
                      (revoking === k.id ? (
                        <ConfirmInline
                          question={t('keys.confirmRevoke', { prefix: k.prefix })}
                          confirm={t('keys.confirmRevokeSubmit')}
                          onConfirm={() => void revoke(k.id)}
                          onCancel={() => setRevoking(null)}
                        />
                      ) : (
                        <button
                          type="button"
                          className="secondary"
                          aria-label={t('keys.revoke', { prefix: k.prefix })}
                          onClick={() => setRevoking(k.id)}
                        >
                          {t('keys.revokeButton')}
                        </button>
                      ))}
                  </>
                ),
            },
          ]}
        />
      )}
    </>
  );
}
