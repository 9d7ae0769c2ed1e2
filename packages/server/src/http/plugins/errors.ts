import { errorCatalogue, errorMessage, isErrorCode, type ErrorCode } from '@cambio/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { PoisonedJsonError } from '../json-body.ts';

/** The error envelope: success=false, data=null, a stable code and the message in the caller's language. */
export function sendError(req: FastifyRequest, reply: FastifyReply, code: ErrorCode, params: Record<string, string> = {}) {
  const status = errorCatalogue[code].status;
  return reply.code(status).header('x-trace-id', req.id).type('application/json; charset=utf-8').send({
    success: false,
    message: errorMessage(code, req.lang ?? 'es', params),
    data: null,
    code,
    timestamp: new Date().toISOString(),
    traceId: req.id,
    pagination: null,
  });
}

interface AjvError { instancePath?: string; keyword?: string; message?: string; params?: Record<string, unknown> }

/** A short, safe description of the first validation problem: the field and what is wrong. */
function describe(v: AjvError[], context: string | undefined): { field: string; detail: string } {
  const first = v.find((e) => e.keyword !== 'anyOf') ?? v[0] ?? {};
  const missing = first.keyword === 'required' ? String(first.params?.missingProperty ?? '') : '';
  const extra = first.keyword === 'additionalProperties' ? String(first.params?.additionalProperty ?? '') : '';
  const path = (first.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const field = missing || extra || path || context || 'body';
  const what = missing ? 'is required' : extra ? 'is not allowed' : (first.message ?? 'is not valid');
  return { field: field.slice(0, 60), detail: `${field.slice(0, 60)} ${what}`.slice(0, 200) };
}

/** Maps every failure to the envelope. Unknown errors become 500 with the traceId; details stay in the log. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { validationContext?: string }, req, reply) => {
    if (err instanceof DomainError) {
      if (errorCatalogue[err.code].status >= 500) req.log.error({ err }, 'domain error with status 5xx');
      return sendError(req, reply, err.code, err.params);
    }
    if (err.validation) {
      const { field, detail } = describe(err.validation as AjvError[], err.validationContext);
      if (err.validationContext === 'body') {
        if (/Minor$/.test(field)) return sendError(req, reply, 'request.invalid_amount', { field });
        return sendError(req, reply, 'request.validation_failed', { detail });
      }
      return sendError(req, reply, 'request.invalid_query', { detail });
    }
    if (err instanceof PoisonedJsonError || err instanceof SyntaxError) return sendError(req, reply, 'request.invalid_json');
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE': return sendError(req, reply, 'request.body_too_large');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return sendError(req, reply, 'request.unsupported_media_type');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH': return sendError(req, reply, 'request.invalid_json');
    }
    if (err.statusCode === 429) return sendError(req, reply, 'rate_limit.exceeded');
    if (err.statusCode === 408) return sendError(req, reply, 'request.timeout');
    if (err.statusCode === 413) return sendError(req, reply, 'request.body_too_large');
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return sendError(req, reply, 'request.bad_request');
    if (typeof err.code === 'string' && isErrorCode(err.code)) return sendError(req, reply, err.code);
    req.log.error({ err }, 'unexpected error');
    return sendError(req, reply, 'internal.unexpected');
  });

  app.setNotFoundHandler((req, reply) => sendError(req, reply, 'request.not_found'));
}
