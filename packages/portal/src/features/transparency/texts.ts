import type { Lang } from '@cambio/contract';

/** This feature's words, kept here so the shared dictionary stays as it is. */
const TEXT = {
  en: {
    column: 'In the log',
    liabilitiesTitle: 'Published liabilities',
    forkedTitle: 'The books cannot be trusted: the log is not the one this browser verified before.',
    verified: 'Verified in the log',
    pending: 'Not in the log yet',
    failed: 'Not verified',
    checking: 'Checking…',
    liabilitiesOk: 'Your balances are in the published liabilities ✓',
    liabilitiesFailed: 'Your balances could not be verified in the published liabilities',
    liabilitiesNone: 'No liabilities snapshot has been published yet.',
    liabilitiesChecking: 'Checking your balances against the published liabilities…',
    liabilitiesDetail:
      'Snapshot {id} of {at} at log size {size}, checked in this browser against the signed, published roots and your own ledger.',
  },
  es: {
    column: 'En el registro',
    liabilitiesTitle: 'Pasivos publicados',
    forkedTitle: 'No se puede confiar en los libros: el registro no es el que este navegador verificó antes.',
    verified: 'Verificado en el registro',
    pending: 'Todavía no está en el registro',
    failed: 'No verificado',
    checking: 'Verificando…',
    liabilitiesOk: 'Sus saldos están en los pasivos publicados ✓',
    liabilitiesFailed: 'No se pudo verificar sus saldos en los pasivos publicados',
    liabilitiesNone: 'Todavía no se publicó ninguna instantánea de pasivos.',
    liabilitiesChecking: 'Verificando sus saldos contra los pasivos publicados…',
    liabilitiesDetail:
      'Instantánea {id} del {at} con el registro en {size} entradas, verificada en este navegador contra las raíces publicadas y firmadas y su propio libro.',
  },
} as const;

export type TransparencyText = keyof typeof TEXT.en;
export const text = (lang: Lang, key: TransparencyText, vars: Record<string, string> = {}): string =>
  (TEXT[lang] ?? TEXT.en)[key].replace(/\{(\w+)\}/g, (_m, k: string) => vars[k] ?? '');
