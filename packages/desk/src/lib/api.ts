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
