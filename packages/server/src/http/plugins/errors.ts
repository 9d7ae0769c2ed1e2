import { errorCatalogue, errorMessage, isErrorCode, type ErrorCode, type Lang } from '@cambio/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { isStoreUnavailable, STORE_RETRY_AFTER_S } from '../../store/store-unavailable.ts';
import { IllFormedTextError, InvalidJsonError } from '../json-body.ts';

/**
 * The error envelope: success=false, data=null, a stable code and the message in the caller's language.
 * An internal code (a broken invariant, e.g. ledger.unbalanced_entry) is never shown: it is logged with
 * its detail and the client sees internal.unexpected with the traceId.
 */
export function sendError(req: FastifyRequest, reply: FastifyReply, code: ErrorCode, params: Record<string, string> = {}, cause?: unknown) {
  if (errorCatalogue[code].internal) {
    req.log.error({ err: cause, code, params }, `internal invariant failed: ${code}`);
    return sendError(req, reply, 'internal.unexpected');
  }
  const status = errorCatalogue[code].status;
  return reply
    .code(status)
    .header('x-trace-id', req.id)
    .type('application/json; charset=utf-8')
    .send({
      success: false,
      message: errorMessage(code, req.lang ?? 'es', params),
      data: null,
      code,
      timestamp: new Date().toISOString(),
      traceId: req.id,
      pagination: null,
    });
}

interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const TYPES: Record<string, Record<Lang, string>> = {
  string: { en: 'text', es: 'texto' },
  integer: { en: 'an integer', es: 'un entero' },
  number: { en: 'a number', es: 'un número' },
  boolean: { en: 'true or false', es: 'true o false' },
  object: { en: 'an object', es: 'un objeto' },
  array: { en: 'a list', es: 'una lista' },
  null: { en: 'null', es: 'null' },
};

/** What is wrong with a field, in each language; ajv's own English text never reaches a message. */
const PROBLEMS: Record<string, (p: Record<string, unknown>) => Record<Lang, string>> = {
  required: () => ({ en: 'is required', es: 'es obligatorio' }),
  additionalProperties: () => ({ en: 'is not allowed', es: 'no está permitido' }),
  type: (p) => {
    const t = String(p.type)
      .split(',')
      .map((x) => TYPES[x] ?? { en: x, es: x });
    return { en: `must be ${t.map((x) => x.en).join(' or ')}`, es: `debe ser ${t.map((x) => x.es).join(' o ')}` };
  },
  minimum: (p) => ({ en: `must be at least ${String(p.limit)}`, es: `debe ser como mínimo ${String(p.limit)}` }),
  maximum: (p) => ({ en: `must be at most ${String(p.limit)}`, es: `debe ser como máximo ${String(p.limit)}` }),
  exclusiveMinimum: (p) => ({ en: `must be greater than ${String(p.limit)}`, es: `debe ser mayor que ${String(p.limit)}` }),
  exclusiveMaximum: (p) => ({ en: `must be less than ${String(p.limit)}`, es: `debe ser menor que ${String(p.limit)}` }),
  minLength: (p) => ({ en: `must have at least ${String(p.limit)} characters`, es: `debe tener al menos ${String(p.limit)} caracteres` }),
  maxLength: (p) => ({ en: `must have at most ${String(p.limit)} characters`, es: `debe tener como máximo ${String(p.limit)} caracteres` }),
  minItems: (p) => ({ en: `must have at least ${String(p.limit)} items`, es: `debe tener al menos ${String(p.limit)} elementos` }),
  maxItems: (p) => ({ en: `must have at most ${String(p.limit)} items`, es: `debe tener como máximo ${String(p.limit)} elementos` }),
  minProperties: (p) => ({ en: `must have at least ${String(p.limit)} entries`, es: `debe tener al menos ${String(p.limit)} entradas` }),
  maxProperties: (p) => ({ en: `must have at most ${String(p.limit)} entries`, es: `debe tener como máximo ${String(p.limit)} entradas` }),
  uniqueItems: () => ({ en: 'must not repeat an item', es: 'no debe repetir elementos' }),
  pattern: () => ({ en: 'does not have the expected form', es: 'no tiene la forma esperada' }),
  format: (p) => ({ en: `must be a valid ${String(p.format)}`, es: `debe ser un ${String(p.format)} válido` }),
  enum: (p) => {
    const values = (Array.isArray(p.allowedValues) ? p.allowedValues : []).map(String).join(', ');
    return { en: `must be one of: ${values}`, es: `debe ser uno de: ${values}` };
  },
  const: (p) => ({ en: `must be ${String(p.allowedValue)}`, es: `debe ser ${String(p.allowedValue)}` }),
};
const NOT_VALID = () => ({ en: 'is not valid', es: 'no es válido' });

/** Where a problem is: the field's dotted path, with the missing or extra property's name. */
function fieldOf(e: AjvError, context: string | undefined): string {
  const missing = e.keyword === 'required' ? String(e.params?.missingProperty ?? '') : '';
  const extra = e.keyword === 'additionalProperties' ? String(e.params?.additionalProperty ?? '') : '';
  const path = (e.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const leaf = missing || extra;
  return (leaf ? (path ? `${path}.${leaf}` : leaf) : path || context || 'body').slice(0, 60);
}

/**
 * A short, safe description of every validation problem: each bad field once, with what is wrong, in
 * `lang`. A field that must be one of several literals (a union of `const`) names them all; for a field
 * with alternatives (anyOf), the first concrete problem stands for it.
 */
export function describe(v: AjvError[], context: string | undefined, lang: Lang): { field: string; fields: string[]; detail: string } {
  const byField = new Map<string, AjvError[]>();
  for (const e of v) {
    const f = fieldOf(e, context);
    byField.set(f, [...(byField.get(f) ?? []), e]);
  }
  if (byField.size === 0) byField.set(context ?? 'body', [{}]);
  const parts: string[] = [];
  for (const [field, errs] of byField) {
    const consts = errs.filter((e) => e.keyword === 'const');
    const concrete = errs.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'const');
    let what: string;
    if (consts.length > 0 && concrete.every((e) => e.keyword === 'type')) {
      what = PROBLEMS.enum!({ allowedValues: consts.map((e) => e.params?.allowedValue) })[lang];
    } else {
      const first = concrete[0] ?? errs[0] ?? {};
      what = (PROBLEMS[first.keyword ?? ''] ?? NOT_VALID)(first.params ?? {})[lang];
    }
    parts.push(`${field} ${what}`);
  }
  const fields = [...byField.keys()];
  return { field: fields[0]!, fields, detail: parts.join('; ').slice(0, 600) };
}

/** A SQLSTATE meaning the database undid the whole transaction: nothing happened, a retry is safe. */
const ROLLED_BACK = new Set([
  '40001',
  '40P01', // serialization failure, deadlock: the transaction was rolled back
]);
/** numeric_value_out_of_range: an amount or a balance past numeric(78,0). */
const NUMERIC_OVERFLOW = '22003';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The methods the router has for a path (a parametric route matches its concrete paths). */
function allowedMethods(app: FastifyInstance, path: string): string[] {
  return METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
}

/**
 * A body over the limit is answered at once, but the connection stays open while the rest of the body
 * arrives and is thrown away (Node discards what nobody reads; the request timeout bounds a client that
 * never finishes). Fastify asks to close the connection here: closing while the client is still writing
 * resets it, and the client reads a broken connection (EPIPE, ECONNRESET) instead of the 413 it was sent.
 * This is nginx's "lingering close", see docs/security.md.
 */
function bodyTooLarge(req: FastifyRequest, reply: FastifyReply) {
  reply.removeHeader('connection');
  return sendError(req, reply, 'request.body_too_large');
}

/** Maps every failure to the envelope. Unknown errors become 500 with the traceId; details stay in the log. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { validationContext?: string }, req, reply) => {
    if (err instanceof DomainError) {
      // The venue's book will be read again within a second (docs/market.md: Retry-After is 1 s).
      if (err.code === 'market.unavailable') {
        req.log.warn({ code: err.code, detail: err.params.detail }, 'market unavailable');
        reply.header('retry-after', '1');
        return sendError(req, reply, err.code, err.params, err);
      }
      if (errorCatalogue[err.code].status >= 500) req.log.error({ err }, 'domain error with status 5xx');
      // Every 429 carries Retry-After: the refusal's own seconds when it knows them.
      if (errorCatalogue[err.code].status === 429 && !reply.hasHeader('retry-after'))
        reply.header('retry-after', err.params.seconds ?? '60');
      return sendError(req, reply, err.code, err.params, err);
    }
    if (err.validation) {
      const { fields, detail } = describe(err.validation as AjvError[], err.validationContext, req.lang ?? 'es');
      switch (err.validationContext) {
        case 'body':
          // Only bad amounts: the amount code, which says what an amount must look like.
          if (fields.every((f) => /Minor$/.test(f))) return sendError(req, reply, 'request.invalid_amount', { field: fields.join(', ') });
          return sendError(req, reply, 'request.validation_failed', { detail });
        case 'params':
          return sendError(req, reply, 'request.invalid_path', { detail });
        case 'querystring':
          return sendError(req, reply, 'request.invalid_query', { detail });
        default:
          return sendError(req, reply, 'request.bad_request');
      }
    }
    if (err instanceof IllFormedTextError) return sendError(req, reply, 'request.invalid_text', { field: err.field || 'the body' });
    if (err instanceof InvalidJsonError) return sendError(req, reply, 'request.invalid_json');
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return bodyTooLarge(req, reply);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(req, reply, 'request.unsupported_media_type');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(req, reply, 'request.invalid_json');
      case NUMERIC_OVERFLOW:
        req.log.warn({ sqlstate: err.code, detail: err.message }, 'numeric overflow refused');
        return sendError(req, reply, 'ledger.amount_overflow');
    }
    // No primary answers (a lost connection, a failover, a standby): 503 with Retry-After, never a 500.
    if (isStoreUnavailable(err)) {
      req.log.warn({ code: err.code, detail: err.message }, 'store unavailable');
      reply.header('retry-after', String(STORE_RETRY_AFTER_S));
      return sendError(req, reply, 'store.unavailable');
    }
    if (typeof err.code === 'string' && ROLLED_BACK.has(err.code)) {
      req.log.warn({ code: err.code, detail: err.message }, 'transaction rolled back by the database');
      return sendError(req, reply, 'service.unavailable');
    }
    if (err.statusCode === 429) return sendError(req, reply, 'rate_limit.exceeded');
    if (err.statusCode === 408) return sendError(req, reply, 'request.timeout');
    if (err.statusCode === 413) return bodyTooLarge(req, reply);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return sendError(req, reply, 'request.bad_request');
    if (typeof err.code === 'string' && isErrorCode(err.code)) return sendError(req, reply, err.code, {}, err);
    req.log.error({ err }, 'unexpected error');
    return sendError(req, reply, 'internal.unexpected');
  });

  // A known path with another method: 405 with Allow; OPTIONS on it: 204 with Allow. An unknown path: 404.
  app.setNotFoundHandler((req, reply) => {
    const allow = allowedMethods(app, req.url.split('?')[0] ?? '');
    if (allow.length === 0) return sendError(req, reply, 'request.not_found');
    reply.header('allow', [...allow, 'OPTIONS'].join(', '));
    if (req.method === 'OPTIONS') return reply.code(204).send();
    return sendError(req, reply, 'request.method_not_allowed', { method: req.method, allow: allow.join(', ') });
  });
}
