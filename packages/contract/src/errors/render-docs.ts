import { errorCatalogue, type ErrorCode } from './catalogue.ts';

const RETRY_TEXT = {
  never: 'no; the same input gives the same answer',
  read_state_first: 'no; read the state first',
  backoff: 'yes, exponential backoff with jitter and a ceiling',
  once: 'once, then alert',
} as const;

/** docs/errors.md: every code with its status, retry advice and both messages. */
export function renderErrorDocs(): string {
  const codes = (Object.keys(errorCatalogue) as ErrorCode[]).sort();
  const rows = codes
    .filter((c) => !errorCatalogue[c].internal)
    .map((code) => {
      const e = errorCatalogue[code];
      return `| \`${code}\` | ${e.status} | ${RETRY_TEXT[e.retry]} | ${e.messages.en} | ${e.messages.es} |`;
    });
  const internal = codes.filter((c) => errorCatalogue[c].internal).map((code) => `| \`${code}\` | ${errorCatalogue[code].messages.en} |`);
  return [
    '# Error codes',
    '',
    'Every error is the envelope with `success: false`, `data: null`, a stable `code` and a `message` in the',
    'language of `x-lang` (`en` or `es`; default `es`). Branch on `code`, never on `message`. This file is',
    'generated from `packages/contract/src/errors/catalogue.ts` (`node --import tsx scripts/gen-error-docs.ts`);',
    'a test fails when the two disagree.',
    '',
    '| code | status | retry | message (en) | message (es) |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    '## Internal codes (logged, never sent)',
    '',
    'A broken invariant of the server. The log line carries the code and its detail under the traceId;',
    'the client receives `internal.unexpected` (500) with that traceId and nothing more.',
    '',
    '| code | meaning |',
    '|---|---|',
    ...internal,
    '',
  ].join('\n');
}
