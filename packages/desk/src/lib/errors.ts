import { errorMessage, isErrorCode } from '@cambio/contract';
import { CambioError } from '@cambio/sdk';
import { LANG, t } from './i18n.ts';

export interface ShownError { message: string; code: string | null; traceId: string | null; status: number | null }

/** The catalogue's message in the desk's language (the server's words, else the catalogue's), its code and the traceId for support. */
export function shown(e: unknown): ShownError {
  if (e instanceof CambioError) {
    const fromCatalogue = isErrorCode(e.code) ? errorMessage(e.code, LANG) : null;
    const message = e.status === 0 ? t('error.network') : e.message && !/^HTTP \d+/.test(e.message) ? e.message : fromCatalogue ?? e.message;
    return { message, code: e.code, traceId: e.traceId, status: e.status };
  }
  return { message: e instanceof Error ? e.message : String(e), code: null, traceId: null, status: null };
}

export function isUnauthenticated(e: unknown): boolean {
  return e instanceof CambioError && e.status === 401;
}
