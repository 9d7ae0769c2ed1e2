import { formatDateTime } from '@cambio/web-kit';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { usePortal } from '../lib/portal-context.ts';

export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'success' | 'warning' }) {
  return (
    <div className={`notice notice-${tone}`} role="status">
      {children}
    </div>
  );
}

/** The confirming click of an irreversible act on one row (revoke, remove, delete): the question, the act, a way back. */
export function ConfirmInline({
  question,
  confirm,
  onConfirm,
  onCancel,
  back,
  busy,
}: {
  question: string;
  confirm: string;
  onConfirm: () => void;
  onCancel: () => void;
  back?: string;
  busy?: boolean;
}) {
  const { t } = usePortal();
  return (
    <span role="group" aria-label={question}>
      <span className="small">{question}</span>{' '}
      <button type="button" className="danger" onClick={onConfirm} disabled={busy}>
        {confirm}
      </button>{' '}
      <button type="button" className="secondary" onClick={onCancel}>
        {back ?? t('common.cancel')}
      </button>
    </span>
  );
}

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = usePortal();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      /* clipboard refused: the field is selectable */
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" className="secondary" onClick={copy} aria-label={label ? `${t('common.copy')}: ${label}` : undefined}>
      {copied ? t('common.copied') : t('common.copy')}
    </button>
  );
}

/** A secret shown once (a new API key, a webhook signing secret): read-only, selected, with a copy button and a warning. */
export function SecretShownOnce({
  label,
  secret,
  warning,
  copyLabel,
  onDone,
}: {
  label: string;
  secret: string;
  warning: string;
  copyLabel: string;
  onDone: () => void;
}) {
  const { t } = usePortal();
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  return (
    <div className="notice notice-warning">
      <label htmlFor={id}>{label}</label>
      {/* A text area that wraps: the whole secret is always in view, at 375 px too. */}
      <textarea id={id} ref={ref} readOnly value={secret} className="secret" rows={2} spellCheck={false} aria-describedby={`${id}-warn`} />
      <p id={`${id}-warn`}>{warning}</p>
      <CopyButton text={secret} label={copyLabel} />{' '}
      <button type="button" className="secondary" onClick={onDone}>
        {t('keys.done')}
      </button>
    </div>
  );
}

/** Seconds left until `at`, ticking each second; 0 once passed. */
export function useSecondsLeft(at: string | null | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!at) return;
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [at]);
  if (!at) return null;
  const ms = Date.parse(at) - now;
  return ms <= 0 ? 0 : Math.trunc((ms + 999) / 1000);
}

export function formatDuration(seconds: number): string {
  const h = Math.trunc(seconds / 3600);
  const m = Math.trunc((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A live countdown; screen readers hear it only at the end, not every second. */
export function Countdown({ at, onExpire }: { at: string; onExpire?: () => void }) {
  const { t, lang } = usePortal();
  const left = useSecondsLeft(at);
  const fired = useRef(false);
  useEffect(() => {
    if (left === 0 && !fired.current) {
      fired.current = true;
      onExpire?.();
    }
  }, [left, onExpire]);
  return (
    <span className="countdown" title={formatDateTime(at, lang)}>
      {left === 0 ? t('common.expired') : t('common.expiresIn', { time: formatDuration(left ?? 0) })}
    </span>
  );
}

/** A moment in the person's time zone, in the language's one pattern (web kit's formatDateTime); UTC on hover. */
export function DateTime({ iso }: { iso: string | null }) {
  const { lang } = usePortal();
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={new Date(iso).toISOString()}>
      {formatDateTime(iso, lang)}
    </time>
  );
}

/** Previous / next for a paged list; the server's pagination decides. */
export function Pager({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (p: number) => void }) {
  const { t } = usePortal();
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={t('common.page', { page, pages: totalPages })}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('common.prev')}
      </button>
      <span>{t('common.page', { page, pages: totalPages })}</span>
      <button type="button" className="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        {t('common.next')}
      </button>
    </nav>
  );
}
