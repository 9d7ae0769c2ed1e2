import { LANG } from './i18n.ts';

/** States in words staff and treasurers share (StateBadge); the colour is never the only signal. */
const WORDS: Record<string, string> = {
  pending_approval: 'Waiting for approval — amount held',
  approved: 'Approved — waiting for execution',
  completed: 'Completed',
  rejected: 'Rejected — hold released',
  failed: 'Failed — hold released',
  credited: 'Credited',
  unattributed: 'Unattributed',
  active: 'Active',
  draft: 'Draft',
  suspended: 'Suspended',
  closed: 'Closed',
  invited: 'Invited',
  removed: 'Removed',
  open: 'Open',
  matched: 'Matched',
  expired: 'Expired',
};

const ES: Record<string, string> = {
  pending_approval: 'Esperando aprobación — monto retenido',
  approved: 'Aprobada — esperando ejecución',
  completed: 'Completada',
  rejected: 'Rechazada — retención liberada',
  failed: 'Fallida — retención liberada',
  credited: 'Acreditado',
  unattributed: 'Sin atribuir',
  active: 'Activa',
  draft: 'Borrador',
  suspended: 'Suspendida',
  closed: 'Cerrada',
  invited: 'Invitado',
  removed: 'Dado de baja',
  open: 'Abierta',
  matched: 'Conciliado',
  expired: 'Vencida',
};

export function stateWord(state: string): string | undefined {
  const words = LANG === 'es' ? ES : WORDS;
  return Object.hasOwn(words, state) ? words[state] : undefined;
}
