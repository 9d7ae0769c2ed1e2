import { LogForkError } from '@cambio/sdk';
import { usePortal } from '../../lib/portal-context.ts';
import { useMonitoredCheckpoint } from './log-monitor.ts';
import { text } from './texts.ts';

/** A visible warning when the log is not the one this browser saw before: the books cannot be trusted. */
export function LogWarning() {
  const { sdk, lang } = usePortal();
  const cp = useMonitoredCheckpoint(sdk);
  if (!(cp.error instanceof LogForkError)) return null;
  return (
    <div role="alert" className="card error log-warning">
      <strong>{text(lang, 'forkedTitle')}</strong>
      <p className="small">{cp.error.message}</p>
    </div>
  );
}
