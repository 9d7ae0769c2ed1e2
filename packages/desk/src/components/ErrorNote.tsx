import { shown } from '../lib/errors.ts';
import { t } from '../lib/i18n.ts';

/** The server's message for the error, its code, and the traceId in small print for support. */
export function ErrorNote({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  const e = shown(error);
  return (
    <div className="error-note" role="alert" id={id}>
      <p>{e.message}</p>
      {(e.code || e.traceId) && (
        <p className="small">
          {e.code}
          {e.traceId ? ` · ${t('error.trace')} ${e.traceId}` : ''}
        </p>
      )}
    </div>
  );
}
