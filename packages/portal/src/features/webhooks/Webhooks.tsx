import { EVENT_TYPES, type EventType } from '@cambio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpoint, WebhookTestResult, WebhookWithSecret } from '@cambio/sdk';
import { useState, type FormEvent } from 'react';
import { DataTable, ErrorBox, Field, Loading, useActionKey } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { ScopePicker } from '../../components/ScopePicker.tsx';
import { ConfirmInline, DateTime, Notice, SecretShownOnce } from '../../components/ui.tsx';

function CreateForm({ onCreated, onCancel }: { onCreated: (h: WebhookWithSecret) => void; onCancel: () => void }) {
  const { sdk, t } = usePortal();
  const act = useActionKey();
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (url.trim() === '') return;
    setBusy(true);
    setError(null);
    try {
      const body = { url: url.trim(), ...(types.length ? { types: types as EventType[] } : {}) };
      onCreated(await act.run(body, (idempotencyKey) => sdk.webhooks.create(body, { idempotencyKey })));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate className="card">
      <ErrorBox error={error} />
      <Field
        label={t('hooks.url')}
        type="url"
        value={url}
        onChange={setUrl}
        autoComplete="off"
        error={touched && url.trim() === '' ? t('hooks.urlRequired') : null}
      />
      <ScopePicker legend={t('hooks.types')} offered={[...EVENT_TYPES]} chosen={types} onChange={setTypes} />
      <button type="submit" disabled={busy}>
        {t('hooks.create')}
      </button>{' '}
      <button type="button" className="secondary" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

/** How the endpoint is doing: the success rate over 24 hours, what waits, the next retry, the last failure. */
function Health({ hook }: { hook: WebhookEndpoint }) {
  const { sdk, t } = usePortal();
  const health = useQuery({ queryKey: ['webhook-health', hook.id], queryFn: () => sdk.webhooks.health(hook.id) });
  const h = health.data;
  return (
    <section aria-label={t('hooks.healthOf', { url: hook.url })} className="card">
      <h2>{t('hooks.healthOf', { url: hook.url })}</h2>
      <ErrorBox error={health.error} />
      {!h ? (
        <Loading />
      ) : (
        <dl className="summary">
          <dt>{t('hooks.successRate')}</dt>
          <dd>
            {h.successRatePct === null
              ? t('hooks.noAttempts')
              : t('hooks.rateOf', { pct: h.successRatePct, ok: h.succeeded, all: h.attempts })}
          </dd>
          <dt>{t('hooks.pending')}</dt>
          <dd>{h.pending}</dd>
          <dt>{t('hooks.retrying')}</dt>
          <dd>{h.retrying}</dd>
          <dt>{t('hooks.nextRetry')}</dt>
          <dd>{h.nextRetryAt ? <DateTime iso={h.nextRetryAt} /> : '—'}</dd>
          <dt>{t('hooks.lastSuccess')}</dt>
          <dd>{h.lastSuccessAt ? <DateTime iso={h.lastSuccessAt} /> : '—'}</dd>
          <dt>{t('hooks.lastFailure')}</dt>
          <dd>
            {h.lastFailure ? (
              <>
                <DateTime iso={h.lastFailure.at} /> {h.lastFailure.statusCode ?? h.lastFailure.error}
              </>
            ) : (
              '—'
            )}
          </dd>
        </dl>
      )}
    </section>
  );
}

/** The endpoint's deliveries, newest first, with a replay for each. */
function Deliveries({ hook }: { hook: WebhookEndpoint }) {
  const { sdk, t } = usePortal();
  const act = useActionKey();
  const qc = useQueryClient();
  const key = ['webhook-deliveries', hook.id];
  const list = useQuery({ queryKey: key, queryFn: () => sdk.webhooks.deliveries(hook.id, { limit: 20 }) });
  const [error, setError] = useState<unknown>(null);
  const [replayed, setReplayed] = useState<string | null>(null);
  const replay = async (eventId: string) => {
    setError(null);
    try {
      await act.run(eventId, (idempotencyKey) => sdk.webhooks.replay(hook.id, eventId, { idempotencyKey }));
      setReplayed(eventId);
      await qc.invalidateQueries({ queryKey: key });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section aria-label={t('hooks.deliveriesOf', { url: hook.url })}>
      <Health hook={hook} />
      <h2>{t('hooks.deliveriesOf', { url: hook.url })}</h2>
      <ErrorBox error={error ?? list.error} />
      {replayed && <Notice tone="success">{t('hooks.replayed', { id: replayed })}</Notice>}
      {list.isPending ? (
        <Loading />
      ) : (list.data?.items ?? []).length === 0 ? (
        <p>{t('common.none')}</p>
      ) : (
        <DataTable
          caption={t('hooks.deliveriesOf', { url: hook.url })}
          rows={list.data?.items ?? []}
          rowKey={(d) => d.eventId}
          columns={[
            {
              label: t('hooks.event'),
              cell: (d) => (
                <>
                  <code>{d.eventId}</code> {d.eventType}
                </>
              ),
            },
            { label: t('common.state'), cell: (d) => t(`hooks.state.${d.state}`) },
            { label: t('hooks.attempts'), cell: (d) => d.attempts },
            { label: t('hooks.lastAnswer'), cell: (d) => d.lastStatusCode ?? d.lastError ?? '—' },
            { label: t('common.created'), cell: (d) => <DateTime iso={d.createdAt} /> },
            {
              label: t('hooks.replay'),
              actions: true,
              cell: (d) => (
                <button
                  type="button"
                  className="secondary"
                  aria-label={t('hooks.replayEvent', { id: d.eventId })}
                  onClick={() => void replay(d.eventId)}
                >
                  {t('hooks.replay')}
                </button>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}

export function Webhooks() {
  const { sdk, t, can, sandbox } = usePortal();
  const deleteKey = useActionKey();
  const rotateKey = useActionKey();
  const enableKey = useActionKey();
  const qc = useQueryClient();
  const allowed = can('portal:webhooks');
  const list = useQuery({ queryKey: ['webhooks'], queryFn: () => sdk.webhooks.list(), enabled: allowed });
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<WebhookWithSecret | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [tested, setTested] = useState<{ url: string; result: WebhookTestResult } | null>(null);

  if (!allowed)
    return (
      <>
        <h1>{t('hooks.title')}</h1>
        <Notice>{t('hooks.notAllowed')}</Notice>
      </>
    );

  const refresh = () => qc.invalidateQueries({ queryKey: ['webhooks'] });
  const remove = async (id: string) => {
    setError(null);
    try {
      await deleteKey.run(id, (idempotencyKey) => sdk.webhooks.delete(id, { idempotencyKey }));
      setDeleting(null);
      if (open === id) setOpen(null);
      await refresh();
    } catch (err) {
      setError(err);
    }
  };
  const rotate = async (id: string) => {
    setError(null);
    try {
      setShown(await rotateKey.run(id, (idempotencyKey) => sdk.webhooks.rotateSecret(id, { idempotencyKey })));
      await refresh();
    } catch (err) {
      setError(err);
    }
  };
  const enable = async (id: string) => {
    setError(null);
    try {
      await enableKey.run(id, (idempotencyKey) => sdk.webhooks.enable(id, { idempotencyKey }));
      await refresh();
    } catch (err) {
      setError(err);
    }
  };
  // Sandbox only: a signed webhook.test sent now; its outcome is shown above the list.
  const sendTest = async (h: WebhookEndpoint) => {
    setError(null);
    setTested(null);
    setTesting(h.id);
    try {
      setTested({ url: h.url, result: await sdk.webhooks.test(h.id) });
    } catch (err) {
      setError(err);
    } finally {
      setTesting(null);
    }
  };
  const hooks = list.data ?? [];
  const opened = hooks.find((h) => h.id === open);

  return (
    <>
      <h1>{t('hooks.title')}</h1>
      <ErrorBox error={error ?? list.error} />
      {tested && (
        <Notice tone={tested.result.state === 'delivered' ? 'success' : 'warning'}>
          {tested.result.state === 'delivered'
            ? t('hooks.testDelivered', { url: tested.url, status: String(tested.result.statusCode), ms: String(tested.result.latencyMs) })
            : t('hooks.testFailed', { url: tested.url, error: tested.result.error ?? '', ms: String(tested.result.latencyMs) })}
          {tested.result.responseExcerpt ? (
            <>
              {' '}
              {t('hooks.testAnswer', { excerpt: '' })}
              <code className="break">{tested.result.responseExcerpt}</code>
            </>
          ) : null}
        </Notice>
      )}
      {shown && (
        <SecretShownOnce
          label={t('hooks.secret', { url: shown.url })}
          secret={shown.secret}
          warning={t('hooks.shownOnce')}
          copyLabel={t('hooks.secretLabel')}
          onDone={() => setShown(null)}
        />
      )}
      {!creating && !shown && (
        <button type="button" onClick={() => setCreating(true)}>
          {t('hooks.add')}
        </button>
      )}
      {creating && (
        <CreateForm
          onCancel={() => setCreating(false)}
          onCreated={(h) => {
            setShown(h);
            setCreating(false);
            void refresh();
          }}
        />
      )}
      {list.isPending ? (
        <Loading />
      ) : hooks.length === 0 ? (
        <p>{t('common.none')}</p>
      ) : (
        <DataTable
          caption={t('hooks.title')}
          rows={hooks}
          rowKey={(h) => h.id}
          columns={[
            { label: t('hooks.url'), cell: (h) => <code>{h.url}</code> },
            { label: t('hooks.typesColumn'), cell: (h) => (h.types ? h.types.join(', ') : t('hooks.allTypes')) },
            {
              label: t('common.state'),
              cell: (h) => (
                <>
                  <span className={`badge ${h.status === 'enabled' ? 'badge-completed' : 'badge-rejected'}`}>
                    {t(`hooks.status.${h.status}`)}
                  </span>
                  {h.failingSince && (
                    <span className="small">
                      {' '}
                      {t('hooks.failingSince')} <DateTime iso={h.failingSince} />
                    </span>
                  )}
                  {h.disabledAt && (
                    <span className="small">
                      {' '}
                      {t('hooks.disabledAt')} <DateTime iso={h.disabledAt} />
                      {h.disabledReason ? ` (${h.disabledReason})` : ''}
                    </span>
                  )}
                </>
              ),
            },
            { label: t('common.created'), cell: (h) => <DateTime iso={h.createdAt} /> },
            {
              label: t('hooks.actions'),
              actions: true,
              cell: (h) => (
                <>
                  {h.status === 'disabled' && (
                    <>
                      <button type="button" onClick={() => void enable(h.id)} aria-label={t('hooks.enable', { url: h.url })}>
                        {t('hooks.enableShort')}
                      </button>{' '}
                    </>
                  )}
                  <button
                    type="button"
                    className="secondary"
                    aria-expanded={open === h.id}
                    aria-label={t('hooks.deliveries', { url: h.url })}
                    onClick={() => setOpen(open === h.id ? null : h.id)}
                  >
                    {t('hooks.deliveriesShort')}
                  </button>{' '}
                  {sandbox && (
                    <>
                      <button
                        type="button"
                        className="secondary"
                        aria-label={t('hooks.testLabel', { url: h.url })}
                        disabled={testing === h.id}
                        onClick={() => void sendTest(h)}
                      >
                        {t('hooks.test')}
                      </button>{' '}
                    </>
                  )}
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => void rotate(h.id)}
                    aria-label={t('hooks.rotate', { url: h.url })}
                  >
                    {t('hooks.rotateShort')}
                  </button>{' '}
                  {deleting === h.id ? (
                    <ConfirmInline
                      question={t('hooks.confirmDelete', { url: h.url })}
                      confirm={t('hooks.confirmDeleteSubmit')}
                      onConfirm={() => void remove(h.id)}
                      onCancel={() => setDeleting(null)}
                    />
                  ) : (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => setDeleting(h.id)}
                      aria-label={t('hooks.delete', { url: h.url })}
                    >
                      {t('hooks.deleteShort')}
                    </button>
                  )}
                </>
              ),
            },
          ]}
        />
      )}
      {opened && <Deliveries hook={opened} />}
    </>
  );
}
