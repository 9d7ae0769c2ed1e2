import nodemailer from 'nodemailer';
import type { Hidden } from '../config.ts';
import type { MailSender, OutgoingMail } from '../usecases/ports.ts';

/**
 * The SMTP adapter of the mail port: nodemailer on CAMBIO_SMTP_URL (`smtp://`, upgraded with STARTTLS
 * when the server offers it, or `smtps://`, TLS from the first byte). A connection per message: mail is
 * rare here, and nothing stays open between outbox runs. Short timeouts, so a server that does not answer
 * holds up one run, not the task.
 */
export function smtpSender(url: Hidden, from: string): MailSender & { close(): void } {
  const transport = nodemailer.createTransport({
    url: url.reveal(),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    // Never a logger: the message carries one-time links.
    logger: false,
    debug: false,
  });
  return {
    async send(m: OutgoingMail) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
    close: () => transport.close(),
  };
}
