import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

type Serialize = (data: unknown) => string;
const built = new Map<string, Serialize>();

/**
 * Fastify's own response serializer (fast-json-stringify, no shared schemas, no options), built once
 * per distinct schema in the process: most routes answer their errors with the same envelopes, and an
 * app built again in one process (each test harness builds one) finds every serializer already built.
 * Building one is far dearer than the schema's text that names it.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  let key: string;
  try {
    key = JSON.stringify(schema);
  } catch {
    // A schema JSON cannot write (a bigint default) is built as Fastify would, every time.
    return fastJsonStringify(schema as object) as Serialize;
  }
  let serialize = built.get(key);
  if (!serialize) {
    serialize = fastJsonStringify(schema as object) as Serialize;
    built.set(key, serialize);
  }
  return serialize;
};
