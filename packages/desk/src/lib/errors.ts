import { CambioError } from '@cambio/sdk';

export interface ShownError { message: string; code: string | null; traceId: string | null; status: number | null }

/** The catalogue's message (the server's language), its code and the traceId for support. */
export function shown(e: unknown): ShownError {
  if (e instanceof CambioError) {
    const message = e.status === 0 ? 'The service did not answer. Check the connection and try again.' : e.message;
    return { message, code: e.code, traceId: e.traceId, status: e.status };
  }
  return { message: e instanceof Error ? e.message : String(e), code: null, traceId: null, status: null };
}

export function isUnauthenticated(e: unknown): boolean {
  return e instanceof CambioError && e.status === 401;
}
