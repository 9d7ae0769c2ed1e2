import type { ErrorCode } from '@cambio/contract';

/** A refusal with a stable code. Knows nothing of HTTP: the error plugin maps the code to a status. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly params: Record<string, string>;
  constructor(code: ErrorCode, params: Record<string, string> = {}) {
    super(code);
    this.name = 'DomainError';
    this.code = code;
    this.params = params;
  }
}

export const fail = (code: ErrorCode, params?: Record<string, string>): never => {
  throw new DomainError(code, params);
};
