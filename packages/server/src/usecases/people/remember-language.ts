import type { PersonKind, Repositories } from '../repositories.ts';

/**
 * The language a person signed in with becomes the one their later mails speak (a decision on their
 * request, a reset link). One statement that writes only when the language changed; it decides nothing
 * and records no audit entry (a preference, not a change of anyone's rights).
 */
export async function rememberLanguage(
  d: { store: Pick<Repositories, 'mail'> },
  kind: PersonKind,
  id: string,
  lang: string,
): Promise<void> {
  await d.store.mail.setLang(kind, id, lang);
}
