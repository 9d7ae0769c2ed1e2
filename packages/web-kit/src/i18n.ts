import { errorMessage, isErrorCode, type Lang } from '@cambio/contract';
import { CambioError } from '@cambio/sdk';

/**
 * The one i18n mechanism of the web apps: each app keeps its own message catalogues (`en` and `es`,
 * the same keys, checked by the type of its `es`), and looks words up here. Errors from the server
 * are worded by the error catalogue of @cambio/contract in the chosen language, never by an app.
 */
export type Params = Record<string, string | number>;
export type Catalogues<K extends string> = Record<Lang, Record<K, string>>;
export type Translate<K extends string> = (key: K, params?: Params) => string;

export const LANGS: ReadonlyArray<{ lang: Lang; name: string }> = [
  { lang: 'en', name: 'English' },
  { lang: 'es', name: 'Español' },
];

/** `{name}` in a text is replaced by `params.name`; a placeholder without a value stays as written. */
export function fill(text: string, params: Params = {}): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (params[k] !== undefined ? String(params[k]) : m));
}

export function translator<K extends string>(catalogues: Catalogues<K>, lang: Lang): Translate<K> {
  const words = catalogues[lang];
  return (key, params) => fill(words[key], params);
}

/** The word for a key built at run time (a record state), or undefined when the catalogue has none. */
export function wordFor<K extends string>(catalogues: Catalogues<K>, lang: Lang, key: string): string | undefined {
  const words: Record<string, string> = catalogues[lang];
  return Object.hasOwn(words, key) ? words[key] : undefined;
}

/** A saved choice wins; otherwise Spanish for a browser that asks for any Spanish, else English. */
export function pickLang(saved: string | null, browserLanguage: string): Lang {
  if (saved === 'en' || saved === 'es') return saved;
  return browserLanguage.toLowerCase().startsWith('es') ? 'es' : 'en';
}

export interface ShownError {
  message: string;
  code: string | null;
  traceId: string | null;
  status: number | null;
}

/**
 * What to tell a person about a failed call: the server's words (it sends them from the same
 * catalogue, with the details filled in), else the catalogue's message for the code in `lang`; a call
 * that never reached the service says `networkMessage`. The code and traceId are for support.
 */
export function describeError(e: unknown, lang: Lang, networkMessage: string): ShownError {
  if (e instanceof CambioError) {
    if (e.status === 0) return { message: networkMessage, code: e.code, traceId: e.traceId, status: 0 };
    const fromServer = e.message && !/^HTTP \d+/.test(e.message) ? e.message : null;
    const fromCatalogue = isErrorCode(e.code) ? errorMessage(e.code, lang) : null;
    return { message: fromServer ?? fromCatalogue ?? e.message, code: e.code, traceId: e.traceId, status: e.status };
  }
  return { message: e instanceof Error ? e.message : String(e), code: null, traceId: null, status: null };
}
