/**
 * A person's name as Cambio prints it in its own mails and pages ("Tomás, Ana invited you…"): a name, never
 * a message. Whoever invites someone chooses that person's name, so a name that could carry a link or a
 * second line would let them write a Cambio-branded phishing mail ("URGENT: your account is frozen. Verify
 * at http://…"). Refused (docs/security.md, "Invitations"):
 * - line breaks and every control or invisible formatting character (C0, C1, the Unicode line and
 *   paragraph separators, bidirectional overrides and isolates, zero-width characters);
 * - anything that reads as a link: a scheme (`http`, `://`), `www.`, an `@`, or a domain-like word (a dot
 *   between letters or digits followed by two or more letters, as in `cambio-support.com`).
 */
export type NameProblem = 'control' | 'link';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/u;
const LINK = /https?|:\/\/|\bwww\.|@|[\p{L}\p{N}-]\.\p{L}{2,}/iu;

export function personNameProblem(name: string): NameProblem | null {
  if (CONTROL.test(name)) return 'control';
  if (LINK.test(name.normalize('NFKC'))) return 'link';
  return null;
}
