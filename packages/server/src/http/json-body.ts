import { parse } from 'lossless-json';

/**
 * Request bodies are parsed losslessly: JSON.parse would silently round integers above 2^53.
 *
 * - A plain integer that is a safe JS integer stays a number.
 * - A plain integer beyond 2^53 becomes a bigint, exactly. No string, integer or object schema accepts
 *   a bigint: only the amount schemas do (AmountInput's big-integer branch), so `{"name": 1234…}` is
 *   refused instead of naming something with digits.
 * - A number with a fraction or an exponent, or an integer longer than any amount (78 digits), becomes
 *   a NOT_AN_INTEGER symbol that no schema accepts: Cambio's bodies carry no fractional numbers (rates
 *   are decimal strings), and `1e5` in an amount is refused, never read as 100000 or as "1e5".
 *
 * Nesting deeper than MAX_DEPTH, `__proto__`, `constructor.prototype` (as Fastify's own parser) and NUL
 * are refused; every failure is an InvalidJsonError (400 request.invalid_json), never a 500. A lone UTF-16
 * surrogate in a string is IllFormedTextError (422 request.invalid_text).
 */
export const MAX_DEPTH = 64;
const INT = /^-?[0-9]+$/;
const MAX_INT_CHARS = 79; // 78 digits and a sign

/** What a JSON number with a fraction or exponent (or too many digits) parses to; its description is the text. */
export function isNotAnInteger(v: unknown): v is symbol {
  return typeof v === 'symbol';
}

function parseNumber(text: string): number | bigint | symbol {
  if (INT.test(text) && text.length <= MAX_INT_CHARS) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return Symbol(text.slice(0, 100));
}

/** No lone surrogate (String.prototype.isWellFormed, which the compiled-for lib does not declare): with `u`, a pair is one code point and never matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
export const wellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);

export class InvalidJsonError extends Error {}
export class PoisonedJsonError extends InvalidJsonError {}
/** A string (or a key) holding a lone UTF-16 surrogate: valid JSON, but no text; 422 request.invalid_text. */
export class IllFormedTextError extends InvalidJsonError {
  constructor(readonly field: string) {
    super(`lone surrogate in ${field}`);
  }
}

/** True when arrays/objects nest deeper than `limit`; a single pass that skips string contents. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  // lossless-json recurses: a body of 30,000 `[` would overflow the stack (RangeError, a 500).
  if (nestsDeeperThan(text, MAX_DEPTH)) throw new InvalidJsonError(`nested deeper than ${MAX_DEPTH}`);
  try {
    return parse(
      text,
      function (this: unknown, key: string, value: unknown) {
        if (key === '__proto__') throw new PoisonedJsonError('__proto__');
        // PostgreSQL text cannot hold NUL: a body with one is refused here, never a database failure (500).
        if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) throw new PoisonedJsonError('NUL');
        // A lone surrogate (`"\\ud800"`) is no character: PostgreSQL would refuse it (a 500) or it would be
        // stored as U+FFFD, silently not what was sent. Refused here, for every string of every body.
        if (!wellFormed(key) || (typeof value === 'string' && !wellFormed(value)))
          throw new IllFormedTextError(wellFormed(key) ? key : 'a key');
        if (key === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype')) {
          throw new PoisonedJsonError('constructor.prototype');
        }
        return value;
      },
      parseNumber,
    );
  } catch (e) {
    if (e instanceof InvalidJsonError) throw e;
    throw new InvalidJsonError(e instanceof Error ? e.message : String(e));
  }
}
