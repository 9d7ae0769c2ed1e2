import type { ErrorCode } from '@cambio/contract';

/** Codes the SDK itself reports, for failures where no response (or no usable one) arrived. */
export type SdkErrorCode =
  'sdk.network_error' | 'sdk.timeout' | 'sdk.invalid_response' | 'sdk.lost_response_unresolved' | 'sdk.configuration_error';
/** A server code from the catalogue, an SDK code, or a code this SDK version does not know yet. */
export type CambioErrorCode = ErrorCode | SdkErrorCode | (string & {});

export interface ErrorInit {
  status: number;
  code: CambioErrorCode;
  message: string;
  traceId?: string | null;
  method?: string;
  path?: string;
  retryAfterMs?: number | null;
  cause?: unknown;
}

/** What a LostResponseError adds: the read that tried to settle the outcome, when it failed. */
export interface LostResponseInit extends ErrorInit {
  readBackError?: unknown;
}

/**
 * Every failure the SDK raises. It keeps status, code, message and traceId (quote it to support);
 * branch on `code` or on the class, never on `message`. It never carries the API key: the message
 * is redacted, and no request header is kept.
 */
export class CambioError extends Error {
  readonly status: number;
  readonly code: CambioErrorCode;
  readonly traceId: string | null;
  /** `GET /api/v1/withdrawals`, for the log; never the headers. */
  readonly method: string | undefined;
  readonly path: string | undefined;
  /** From `Retry-After`, when the server sent one. */
  readonly retryAfterMs: number | null;

  constructor(init: ErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.traceId = init.traceId ?? null;
    this.method = init.method;
    this.path = init.path;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }

  toJSON() {
    return { name: this.name, status: this.status, code: this.code, message: this.message, traceId: this.traceId };
  }
}

/** The server answered with an error envelope. */
export class APIError extends CambioError {}
export class InvalidRequestError extends APIError {}
/** 401: the credential does not authenticate; retrying it is not useful (spec: Authentication §6). */
export class AuthenticationError extends APIError {}
/** 403: a scope is missing; compare with `permissions` of `client.get()`. */
export class PermissionError extends APIError {}
/** 403 clients.client_cannot_operate: organization not active or no limits loaded; quotes still work. */
export class ClientCannotOperateError extends PermissionError {}
export class NotFoundError extends APIError {}
export class ConflictError extends APIError {}
/** 409 deposits.declaration_already_open: read `deposits.openDeclaration()`. */
export class DeclarationAlreadyOpenError extends ConflictError {}
/** 409 ledger.ledger_not_reconciled: the platform stopped deciding until a person reviews; alert and wait. */
export class LedgerNotReconciledError extends ConflictError {}
export class DestinationAlreadyRegisteredError extends ConflictError {}
/** 409 idempotency.in_progress: the first request with this Idempotency-Key is still running; retried with backoff. */
export class IdempotencyInProgressError extends ConflictError {}
export class GoneError extends APIError {}
/** 410 orders.quote_expired (or quotes.quote_expired): ask for a new quote, never retry the same quoteId. */
export class QuoteExpiredError extends GoneError {}
/** 410 orders.quote_already_used: the quote was accepted before; no second order was created. */
export class QuoteAlreadyUsedError extends GoneError {}
/** 422 quotes.quote_below_executable_rate: no price at the moment; not transient. */
export class QuoteBelowExecutableRateError extends InvalidRequestError {}
export class InsufficientBalanceError extends InvalidRequestError {}
export class DestinationNotUsableError extends InvalidRequestError {}
/** 422 idempotency.key_reused: the Idempotency-Key was used before for another request. */
export class IdempotencyKeyReusedError extends InvalidRequestError {}
/**
 * The spec's "transient" row (408, 429, 502, 503, 504): the SDK has already retried with backoff when
 * you see one; try again later.
 */
export class TransientError extends APIError {}
/** 408: the request took too long to arrive; nothing was taken. */
export class RequestTimeoutError extends TransientError {}
/** 429: wait (`retryAfterMs` when the server said how long); it does not mean the key is wrong. */
export class RateLimitError extends TransientError {}
/** 502, 503, 504: the service, or a gateway in front of it, is unavailable for now. */
export class ServiceUnavailableError extends TransientError {}
/** 502: a gateway got no valid answer; a creating call may have been applied (see LostResponseError). */
export class BadGatewayError extends ServiceUnavailableError {}
/** 504: a gateway gave up waiting; a creating call may have been applied (see LostResponseError). */
export class GatewayTimeoutError extends ServiceUnavailableError {}
/** 500 (and any other 5xx not above): something a retry does not fix; retried once, then alert. */
export class ServerError extends APIError {}

/** No response arrived: connection refused or reset, DNS, TLS. */
export class ConnectionError extends CambioError {}
/** No response within `timeoutMs`. */
export class TimeoutError extends CambioError {}
/** A response arrived that is not the envelope, or whose amounts are not integers. */
export class ResponseParseError extends CambioError {}
/**
 * The SDK was set up or called in a way no request can carry: a baseUrl that is not a URL, both
 * `baseUrl` and `sandbox`, an API key that is not a valid header value. Never retried; nothing was sent.
 */
export class ConfigurationError extends CambioError {}
/**
 * A creating call lost its response (timeout, broken connection, 500/502/504) and the SDK could not
 * tell whether it was applied: the read-back found nothing after the retries ran out, or the read
 * itself failed (`readBackError`; it needs `portal:read`). `cause` is the creating call's last error.
 * Read the list endpoint (GET /withdrawals, /orders…) before trying again: a blind retry can create
 * a second request.
 */
export class LostResponseError extends CambioError {
  /** Why the read-back failed, or null when it ran and found nothing. */
  readonly readBackError: unknown;

  constructor(init: LostResponseInit) {
    super(init);
    this.readBackError = init.readBackError ?? null;
  }
}

type Ctor = new (init: ErrorInit) => APIError;

// `quotes.quote_expired`: the spec shows the expired-quote condition under this code in one example.
const BY_CODE: Record<string, Ctor> = {
  'clients.client_cannot_operate': ClientCannotOperateError,
  'quotes.quote_expired': QuoteExpiredError,
  'orders.quote_expired': QuoteExpiredError,
  'orders.quote_already_used': QuoteAlreadyUsedError,
  'quotes.quote_below_executable_rate': QuoteBelowExecutableRateError,
  'deposits.declaration_already_open': DeclarationAlreadyOpenError,
  'ledger.ledger_not_reconciled': LedgerNotReconciledError,
  'ledger.insufficient_balance': InsufficientBalanceError,
  'withdrawals.destination_already_registered': DestinationAlreadyRegisteredError,
  'withdrawals.destination_not_usable': DestinationNotUsableError,
  'idempotency.in_progress': IdempotencyInProgressError,
  'idempotency.key_reused': IdempotencyKeyReusedError,
} satisfies Partial<Record<ErrorCode | 'quotes.quote_expired', Ctor>>;

function byStatus(status: number): Ctor {
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 408) return RequestTimeoutError;
  if (status === 409) return ConflictError;
  if (status === 410) return GoneError;
  if (status === 429) return RateLimitError;
  if (status === 502) return BadGatewayError;
  if (status === 503) return ServiceUnavailableError;
  if (status === 504) return GatewayTimeoutError;
  if (status >= 500) return ServerError;
  return InvalidRequestError;
}

/** The one factory: status and code decide the class; the code is never dropped. */
export function errorFromResponse(init: ErrorInit): APIError {
  const Cls = BY_CODE[init.code] ?? byStatus(init.status);
  return new Cls(init);
}

/** Replaces every secret (and its secret half after the dot) with `[REDACTED]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s) continue;
    const parts = [s, ...(s.includes('.') ? [s.slice(s.indexOf('.') + 1)] : [])].filter((p) => p.length >= 6);
    for (const p of parts) out = out.split(p).join('[REDACTED]');
  }
  return out;
}
