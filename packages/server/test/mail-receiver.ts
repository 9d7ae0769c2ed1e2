/**
 * A real SMTP server on loopback (smtp-server), the mail the service sends is received and parsed
 * (mailparser) as a mail client would: tests read the subject, the text and the link, and follow it.
 * The code under test speaks SMTP to it through nodemailer and never knows.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Hidden } from '../src/config.ts';
import { smtpSender } from '../src/mail/smtp-sender.ts';
import type { MailSender } from '../src/usecases/ports.ts';

export interface ReceivedMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface MailReceiver {
  url: string;
  mails: ReceivedMail[];
  /** Every mail received, even those a test cleared from `mails`. */
  seen: ReceivedMail[];
  /** The SMTP adapter pointed at this server. */
  sender: MailSender & { close(): void };
  /** The mails to this address so far. */
  to(address: string): ReceivedMail[];
  /** The first link in a mail's text that starts with `prefix`. */
  link(m: ReceivedMail, prefix: string): string;
  close(): Promise<void>;
}

export async function startMailReceiver(from = 'Cambio <no-reply@cambio.test>'): Promise<MailReceiver> {
  const mails: ReceivedMail[] = [];
  const seen: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    banner: 'test',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (p) => {
            const to = session.envelope.rcptTo.map((r) => r.address).join(',');
            const m = {
              from: p.from?.text ?? '',
              to,
              subject: p.subject ?? '',
              text: p.text ?? '',
              html: typeof p.html === 'string' ? p.html : '',
              raw,
            };
            mails.push(m);
            seen.push(m);
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const url = `smtp://127.0.0.1:${port}`;
  const sender = smtpSender(new Hidden(url), from);
  return {
    url,
    mails,
    seen,
    sender,
    to: (address) => mails.filter((m) => m.to.split(',').includes(address.toLowerCase())),
    link: (m, prefix) => {
      const found = m.text.split(/\s+/).find((w) => w.startsWith(prefix));
      if (!found) throw new Error(`no link starting with ${prefix} in: ${m.text}`);
      return found;
    },
    close: async () => {
      sender.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
