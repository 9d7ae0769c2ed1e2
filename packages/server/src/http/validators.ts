import { bigIntegerKeyword } from '@cambio/contract';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Two validators. Bodies are never coerced: ajv's coercion rewrites values inside a string|integer
 * union, and an amount must reach the domain exactly as it was sent. Query strings and path
 * parameters arrive as text, so there coercion turns `page=2` into 2 — after strictText has checked
 * that the text is a plain decimal integer. Every problem is reported (allErrors), not only the first.
 */
const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };
const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
// Amounts beyond 2^53 arrive as bigint (json-body.ts). Registered on both: with strict off, an unknown
// keyword would be ignored and its branch would accept anything.
for (const ajv of [bodyAjv, textAjv]) ajv.addKeyword({ ...bigIntegerKeyword, errors: false });

/** An integer in a query or a path, as text: digits only, no sign, no leading zero, no exponent, no spaces, at most 16 digits. */
const PLAIN_INTEGER = /^(0|[1-9][0-9]{0,15})$/;

interface ObjectSchema {
  properties?: Record<string, { type?: unknown }>;
}

/**
 * ajv's coercion reads text as JavaScript does (`0x10` is 16, `1e2` is 100, ` 5` is 5) and takes a
 * repeated parameter's single element; docs/design/money-and-states.md says a non-integer is a 400. So every integer
 * parameter is checked as text first, and a repeated one (an array) is refused.
 */
function strictText(schema: ObjectSchema, validate: ValidateFunction): ValidateFunction {
  const integers = Object.entries(schema.properties ?? {})
    .filter(([, s]) => s.type === 'integer')
    .map(([name]) => name);
  const all = Object.keys(schema.properties ?? {});
  const checked = ((data: Record<string, unknown> | null) => {
    const errors: ErrorObject[] = [];
    for (const name of all) {
      const v = data?.[name];
      if (v === undefined) continue;
      if (Array.isArray(v) || (integers.includes(name) && !(typeof v === 'string' && PLAIN_INTEGER.test(v)))) {
        errors.push({
          instancePath: `/${name}`,
          schemaPath: `#/properties/${name}/type`,
          keyword: 'type',
          params: { type: integers.includes(name) ? 'integer' : 'string' },
        });
      }
    }
    const ok = validate(data);
    const later = (validate.errors ?? []).filter((e) => !errors.some((x) => e.instancePath === x.instancePath));
    checked.errors = errors.length > 0 || !ok ? [...errors, ...later] : null;
    return checked.errors === null;
  }) as ValidateFunction;
  return checked;
}

type Validate = ReturnType<FastifySchemaCompiler<object>>;

function compile(schema: object, httpPart: string | undefined): Validate {
  if (httpPart === 'body') return bodyAjv.compile(schema) as Validate;
  const validate = textAjv.compile(schema);
  return (httpPart === 'querystring' || httpPart === 'params' ? strictText(schema as ObjectSchema, validate) : validate) as Validate;
}

/**
 * One validator per distinct schema and part in the process: ajv keeps what it compiled by the schema
 * object, and routes build their schemas afresh each time an app is built (each test harness builds one).
 */
const compiled = new Map<string, Validate>();

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  let key: string;
  try {
    key = `${httpPart}:${JSON.stringify(schema)}`;
  } catch {
    return compile(schema, httpPart); // a schema JSON cannot write (a bigint default): compiled each time
  }
  let validate = compiled.get(key);
  if (!validate) {
    validate = compile(schema, httpPart);
    compiled.set(key, validate);
  }
  return validate;
};
