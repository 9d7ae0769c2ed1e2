import { parse } from 'lossless-json';

/**
 * Request bodies are parsed losslessly: JSON.parse would silently round integers above 2^53.
 * A safe integer stays a number; a larger integer, a fraction or an exponent is kept as its exact
 * text, which the amount schemas accept only when it is plain digits. `__proto__` and
 * `constructor.prototype` keys are refused, as Fastify's own parser does.
 */
const INT = /^-?[0-9]+$/;

function parseNumber(text: string): number | string {
  if (INT.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
  }
  return text;
}

export class PoisonedJsonError extends Error {}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  return parse(text, function (this: unknown, key: string, value: unknown) {
    if (key === '__proto__') throw new PoisonedJsonError('__proto__');
    // PostgreSQL text cannot hold NUL: a body with one is refused here, never a database failure (500).
    if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) throw new PoisonedJsonError('NUL');
    if (key === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype')) {
      throw new PoisonedJsonError('constructor.prototype');
    }
    return value;
  }, parseNumber);
}
