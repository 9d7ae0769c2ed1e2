import type { Lang } from '@cambio/contract';
import { pickLang } from './i18n.ts';

/** The language saved under `storageKey` in this browser, else the browser's own. */
export function savedLang(storageKey: string): Lang {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(storageKey) : null;
  return pickLang(saved, typeof navigator !== 'undefined' ? (navigator.language ?? '') : '');
}

export function saveLang(storageKey: string, lang: Lang): void {
  localStorage.setItem(storageKey, lang);
}
