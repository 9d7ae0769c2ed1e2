import type { Logger } from 'pino';
import type { MailText } from '../../domain/mail/messages.ts';
import type { Clock, Ids } from '../../domain/ports.ts';
import { SealedBox } from '../../domain/sealed-box.ts';
import type { MailSender } from '../ports.ts';
import type { MailKind, Repositories } from '../repositories.ts';

export interface MailDeps {
  store: Repositories;
  clock: Clock;
  ids: Ids;
  secret: string;
  mail?: MailSender | undefined;
  logger?: Logger | undefined;
}

/** Attempts of one message before it is given up (about eleven hours of retries in all). */
export const MAIL_ATTEMPTS = 10;
/** How long a claimed message is held by the sender that claimed it. */
const LEASE_MS = 60_000;
/** The wait before attempt n + 1: 15 s, 30 s, 1 min … at most 2 h. */
export const mailRetryDelayMs = (attempt: number) => Math.min(15_000 * 2 ** Math.min(attempt - 1, 10), 2 * 3_600_000);

// A mail holds a one-time link until it is sent: sealed under the server secret and bound to its row.
const box = (secret: string) => new SealedBox(secret, 'mail/outbox', 'm1.');
const aad = (id: string, to: string) => `cambio/mail/v1|${id}|${to}`;
/** A message as the outbox keeps it until it is sent. */
export const sealMail = (secret: string, id: string, to: string, m: MailText) => box(secret).seal(JSON.stringify(m), aad(id, to));

/**
 * Puts a mail in the outbox, after the change it tells of committed (never inside that transaction), and
 * never fails the caller: a mail that could not even be queued is logged (without its content) and the
 * request goes on. Without a mail sender nothing is queued.
 */
export async function queueMail(d: MailDeps, kind: MailKind, to: string, m: MailText): Promise<boolean> {
  if (!d.mail) return false;
  const id = d.ids.next('mail');
  try {
    await d.store.mail.enqueue({ id, kind, to, sealed: sealMail(d.secret, id, to, m) });
    return true;
  } catch (err) {
    d.logger?.error({ mailId: id, kind, err: { message: (err as Error).message } }, 'could not queue a mail');
    return false;
  }
}

/**
 * Sends the due mail of the outbox (any number of instances: claims are leased). A failed attempt is
 * logged with the message id and the server's answer, never the content or its link, and tried again
 * later; after MAIL_ATTEMPTS it is given up and left `failed` in the outbox for the operator to see.
 */
export async function deliverDueMail(d: MailDeps, limit = 20): Promise<number> {
  if (!d.mail) return 0;
  let sent = 0;
  for (const c of await d.store.mail.claimDue(limit, LEASE_MS)) {
    let m: MailText;
    try {
      m = JSON.parse(box(d.secret).open(c.sealed, aad(c.id, c.to))) as MailText;
    } catch {
      await d.store.mail.markFailed(c.id, 'the sealed message does not open under this secret', null);
      d.logger?.error({ mailId: c.id, kind: c.kind }, 'a queued mail does not open under this secret: given up');
      continue;
    }
    try {
      await d.mail.send({ to: c.to, ...m });
      await d.store.mail.markSent(c.id);
      sent += 1;
    } catch (err) {
      const e = err as { message?: string; code?: string; responseCode?: number };
      const error = [e.code, e.responseCode, (e.message ?? String(err)).slice(0, 300)].filter((x) => x !== undefined).join(' ');
      const last = c.attempts >= MAIL_ATTEMPTS;
      await d.store.mail.markFailed(c.id, error, last ? null : new Date(d.clock.now().getTime() + mailRetryDelayMs(c.attempts)));
      d.logger?.warn(
        { mailId: c.id, kind: c.kind, attempt: c.attempts, error },
        last ? 'a mail could not be sent: given up' : 'a mail could not be sent: will retry',
      );
    }
  }
  return sent;
}
