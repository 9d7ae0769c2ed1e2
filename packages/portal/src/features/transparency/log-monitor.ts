import { LogMonitor, webStorage, type CambioPortal } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';

const monitors = new WeakMap<CambioPortal, LogMonitor>();

/**
 * The portal's watch over the journal log (docs/transparency.md): the verifier key pinned on first use and
 * the newest checkpoint verified kept in this browser's storage, per service; a newer checkpoint is taken
 * only with a consistency proof from it. A fork (a key change, a smaller size, another root at the same
 * size, no consistency) fails the query with a LogForkError, and nothing is remembered from it.
 */
export function logMonitorOf(sdk: CambioPortal): LogMonitor {
  let m = monitors.get(sdk);
  if (!m) {
    m = new LogMonitor({
      source: sdk.transparency,
      storage: webStorage(window.localStorage, `cambio.log-monitor:${window.location.origin}`),
    });
    monitors.set(sdk, m);
  }
  return m;
}

/** The latest checkpoint that passed the monitor, shared by every mark of the page. */
export function useMonitoredCheckpoint(sdk: CambioPortal) {
  return useQuery({ queryKey: ['log-checkpoint'], queryFn: () => logMonitorOf(sdk).update(), staleTime: 2_000, retry: false });
}
