import type { Pagination } from '@cambio/contract';

/** The success envelope; errors are built by the error plugin. */
export function ok<T>(traceId: string, data: T, pagination: Pagination | null = null) {
  return { success: true, message: null, data, code: null, timestamp: new Date().toISOString(), traceId, pagination };
}
