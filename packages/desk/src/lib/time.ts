import { formatDateTime } from '@cambio/web-kit';
import { LANG } from './i18n.ts';

/** "4 min", "2 h 5 min", "3 d 1 h": how long something has waited. */
export function age(fromIso: string, nowMs: number): string {
  const ms = Math.max(0, nowMs - Date.parse(fromIso));
  const min = Math.trunc(ms / 60_000);
  if (min < 1) return `${Math.trunc(ms / 1000)} s`;
  if (min < 60) return `${min} min`;
  const h = Math.trunc(min / 60);
  if (h < 24) return `${h} h ${min % 60} min`;
  return `${Math.trunc(h / 24)} d ${h % 24} h`;
}

/** In the person's own time zone, formatted for the desk's language (Intl). */
export function when(iso: string): string {
  return Number.isNaN(Date.parse(iso)) ? iso : formatDateTime(iso, LANG);
}
