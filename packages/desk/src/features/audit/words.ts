import { t, wordOf } from '../../lib/i18n.ts';

/** "reconciliation.mismatch" → "Reconciliation: mismatch (operations stopped)"; a kind the desk has no word for, spaced out. */
export function auditKindWord(action: string): string {
  return wordOf(`auditKind.${action}`) ?? action.replace(/[._]/g, ' ');
}

/** "platform"/"platform" → "The platform"; "member"/"unknown" (a failed sign-in for no account) → "Member: no account with that email". */
export function auditSubject(subjectType: string, subjectId: string): { word: string; id: string | null } {
  const word = wordOf(`auditSubject.${subjectType}`) ?? subjectType.replace(/_/g, ' ');
  if (subjectType === 'platform' || subjectId === subjectType) return { word, id: null };
  if (subjectId === 'unknown') return { word: `${word}: ${t('audit.unknownPerson')}`, id: null };
  return { word, id: subjectId };
}

/** An actor that is not a named person: the bootstrap token, the service itself, someone not signed in. */
export function actorWord(actor: string): string | null {
  if (actor === 'anonymous') return t('actor.anonymous');
  if (actor === 'bootstrap') return t('actor.bootstrap');
  if (actor.startsWith('bootstrap:')) return t('actor.bootstrapAs', { name: actor.slice('bootstrap:'.length) });
  if (actor === 'system' || actor.startsWith('system:')) return t('actor.system');
  if (actor.startsWith('staff:')) return t('actor.staffUnknown');
  if (actor.startsWith('member:')) return t('actor.memberUnknown');
  if (actor.startsWith('key:')) return t('actor.key');
  return null;
}
