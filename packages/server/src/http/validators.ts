import { bigIntegerKeyword } from '@cambio/contract';
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Two validators. Bodies are never coerced: ajv's coercion rewrites values inside a string|integer
 * union, and an amount must reach the domain exactly as it was sent. Query strings and path
 * parameters arrive as text, so there coercion turns `page=2` into 2.
 */
const common: Options = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false };
const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
// Amounts beyond 2^53 arrive as bigint (json-body.ts). Registered on both: with strict off, an unknown
// keyword would be ignored and its branch would accept anything.
for (const ajv of [bodyAjv, textAjv]) ajv.addKeyword({ ...bigIntegerKeyword, errors: false });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
