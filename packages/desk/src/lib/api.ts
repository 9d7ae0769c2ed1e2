import { CambioOperator } from '@cambio/sdk';
import { LANG } from './i18n.ts';

/**
 * The one way to the server: the SDK's operator client on this origin, authenticated by the staff
 * session cookie (credentials: same-origin, no token in the page). Reads are retried per the spec;
 * decisions are re-sent after a lost answer only with the same Idempotency-Key.
 */
export const op = new CambioOperator({
  session: true,
  baseUrl: window.location.origin,
  lang: LANG,
  timeoutMs: 20_000,
  retry: { maxRetries: 2 },
});

export type Mode = 'sandbox' | 'production';

/**
 * The service's mode, from the page itself (`<meta name="cambio-mode">`, filled in by the server): the
 * sandbox banner and the production actions (fill, payout) follow it.
 */
export function readMode(): Mode {
  return document.querySelector('meta[name="cambio-mode"]')?.getAttribute('content') === 'production' ? 'production' : 'sandbox';
}

/** Whether the service reads a venue's balances (`<meta name="cambio-venue">`): production without one has none to read. */
export function readsVenue(): boolean {
  return document.querySelector('meta[name="cambio-venue"]')?.getAttribute('content') !== 'none';
}

/**
 * Whether this browser was signed in to the desk when it last knew: without it the first load asks
 * for sign-in at once instead of reading a session that is not there (a 401 in the console).
 * A stale mark costs one 401, which clears it.
 */
const SIGNED_IN = 'cambio.desk.signedIn';
export const sessionMark = {
  get: (): boolean => {
    try {
      return localStorage.getItem(SIGNED_IN) === '1';
    } catch {
      return true;
    }
  },
  set: (on: boolean): void => {
    try {
      if (on) localStorage.setItem(SIGNED_IN, '1');
      else localStorage.removeItem(SIGNED_IN);
    } catch {
      /* private mode: the session is read every time */
    }
  },
};
