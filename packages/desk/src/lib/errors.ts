import { CambioError } from '@cambio/sdk';
import { describeError, type ShownError } from '@cambio/web-kit';
import { LANG, t } from './i18n.ts';

export type { ShownError };

/** The catalogue's message in the desk's language (the server's words, else the catalogue's), its code and the traceId for support. */
export function shown(e: unknown): ShownError {
  return describeError(e, LANG, t('error.network'));
}

export function isUnauthenticated(e: unknown): boolean {
  return e instanceof CambioError && e.status === 401;
}
