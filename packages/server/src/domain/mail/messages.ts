import { formatDecimal } from '../money.ts';

export type MailLang = 'en' | 'es';
export interface MailText {
  subject: string;
  text: string;
  html: string;
}

/** The language of a mail: the person's own when known, else Spanish (the API's default). */
export const mailLang = (lang: string | null | undefined): MailLang => (lang === 'en' ? 'en' : 'es');

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Paragraphs and one link, as plain text and as the same words in HTML. */
function compose(subject: string, paragraphs: string[], link?: { label: string; url: string }, after: string[] = []): MailText {
  const text = [...paragraphs, ...(link ? [`${link.label}:\n${link.url}`] : []), ...after].join('\n\n') + '\n';
  const p = (s: string) => `<p>${escape(s)}</p>`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${paragraphs.map(p).join('')}${
    link
      ? `<p><a href="${escape(link.url)}">${escape(link.label)}</a></p><p style="color:#555;font-size:small">${escape(link.url)}</p>`
      : ''
  }${after.map(p).join('')}</body></html>`;
  return { subject, text, html };
}

/** A date and time a person reads, in UTC, in their language's format. */
const when = (d: Date, lang: MailLang) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(d);

/** An exact amount in the language's decimal mark: `0.5 BTC` / `0,5 BTC` (digits, never a JS number). */
export function amountText(minor: bigint, decimals: number, symbol: string, lang: MailLang): string {
  let s = formatDecimal(minor, decimals);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return `${lang === 'es' ? s.replace('.', ',') : s} ${symbol}`;
}

/** The invitation to the portal (a member) or to the desk (staff): the link lets the person choose a password and signs them in. */
export function invitationMail(
  kind: 'member' | 'staff',
  p: { name: string; place: string; url: string; expiresAt: Date },
  lang: MailLang,
): MailText {
  const app =
    kind === 'member'
      ? { en: 'the Cambio portal', es: 'el portal de Cambio' }
      : { en: 'the Cambio desk', es: 'la mesa de operaciones de Cambio' };
  if (lang === 'en') {
    return compose(
      `Your invitation to ${p.place} on Cambio`,
      [`Hello ${p.name},`, `You are invited to ${app.en} for ${p.place}. Open the link to choose your password; you are then signed in.`],
      { label: 'Accept the invitation', url: p.url },
      [`The link works once, until ${when(p.expiresAt, lang)}. If you did not expect this invitation, ignore this mail.`],
    );
  }
  return compose(
    `Su invitación a ${p.place} en Cambio`,
    [
      `Hola, ${p.name}:`,
      `Le invitaron a ${app.es} de ${p.place}. Abra el enlace para elegir su contraseña; luego quedará con la sesión iniciada.`,
    ],
    { label: 'Aceptar la invitación', url: p.url },
    [`El enlace sirve una sola vez, hasta el ${when(p.expiresAt, lang)}. Si no esperaba esta invitación, ignore este correo.`],
  );
}

/** A forgotten password: the link leads to a page that sets a new one. */
/** `place`: the organization of the account (an address may have one in several), or null. */
export function passwordResetMail(p: { url: string; minutes: number; place?: string | null }, lang: MailLang): MailText {
  if (lang === 'en') {
    return compose(
      p.place ? `Reset your Cambio password at ${p.place}` : 'Reset your Cambio password',
      [
        p.place
          ? `Someone, hopefully you, asked to reset the password of the Cambio account of this address at ${p.place}. This link changes that account only.`
          : 'Someone, hopefully you, asked to reset the password of the Cambio account of this address.',
      ],
      { label: 'Choose a new password', url: p.url },
      [
        `The link works once, for ${p.minutes} minutes. Choosing a new password signs you out everywhere; a second factor you enrolled is still asked for at sign-in.`,
        'If you did not ask for this, ignore this mail: your password stays as it is.',
      ],
    );
  }
  return compose(
    p.place ? `Restablezca su contraseña de Cambio en ${p.place}` : 'Restablezca su contraseña de Cambio',
    [
      p.place
        ? `Alguien, esperamos que usted, pidió restablecer la contraseña de la cuenta de Cambio de esta dirección en ${p.place}. Este enlace cambia solo esa cuenta.`
        : 'Alguien, esperamos que usted, pidió restablecer la contraseña de la cuenta de Cambio de esta dirección.',
    ],
    { label: 'Elegir una contraseña nueva', url: p.url },
    [
      `El enlace sirve una sola vez, durante ${p.minutes} minutos. Elegir una contraseña nueva cierra todas sus sesiones; el segundo factor que haya registrado se sigue pidiendo al iniciar sesión.`,
      'Si no lo pidió, ignore este correo: su contraseña no cambia.',
    ],
  );
}

interface Money {
  assetSymbol: string;
  assetDecimals: number;
  amountMinor: string;
}
const isMoney = (m: unknown): m is Money =>
  typeof m === 'object' &&
  m !== null &&
  typeof (m as Money).assetSymbol === 'string' &&
  typeof (m as Money).assetDecimals === 'number' &&
  /^-?[0-9]+$/.test(String((m as Money).amountMinor));
const moneyText = (m: unknown, lang: MailLang) =>
  isMoney(m) ? amountText(BigInt(m.amountMinor), m.assetDecimals, m.assetSymbol, lang) : '';

/**
 * A decision on one of the organization's requests, or money credited to it: what, how much, and the
 * reason of a rejection, with a link to the page that shows it.
 */
export function notificationMail(
  type: string,
  data: Record<string, unknown>,
  p: { organization: string; portalUrl: string },
  lang: MailLang,
): MailText | null {
  const id = typeof data.id === 'string' ? data.id : '';
  const reason = typeof data.reason === 'string' && data.reason ? data.reason : null;
  const en = lang === 'en';
  let subject: string;
  let line: string;
  let page: string;
  switch (type) {
    case 'order.approved':
    case 'order.rejected': {
      const sell = moneyText(data.base, lang);
      const buy = moneyText(data.quote, lang);
      const ok = type === 'order.approved';
      subject = en
        ? `Exchange ${ok ? 'approved' : 'rejected'}: ${sell} for ${buy}`
        : `Cambio ${ok ? 'aprobado' : 'rechazado'}: ${sell} por ${buy}`;
      line = en
        ? `The exchange request ${id} of ${p.organization} (${sell} for ${buy}) was ${ok ? 'approved' : 'rejected'}.`
        : `La solicitud de cambio ${id} de ${p.organization} (${sell} por ${buy}) fue ${ok ? 'aprobada' : 'rechazada'}.`;
      page = 'orders';
      break;
    }
    case 'withdrawal.approved':
    case 'withdrawal.rejected': {
      const amount = moneyText(data.money, lang);
      const ok = type === 'withdrawal.approved';
      const to = typeof data.destinationSummary === 'string' ? data.destinationSummary : '';
      subject = en ? `Withdrawal ${ok ? 'approved' : 'rejected'}: ${amount}` : `Retiro ${ok ? 'aprobado' : 'rechazado'}: ${amount}`;
      line = en
        ? `The withdrawal ${id} of ${p.organization} (${amount}${to ? ` to ${to}` : ''}) was ${ok ? 'approved' : 'rejected'}.`
        : `El retiro ${id} de ${p.organization} (${amount}${to ? ` a ${to}` : ''}) fue ${ok ? 'aprobado' : 'rechazado'}.`;
      page = 'withdrawals';
      break;
    }
    case 'deposit.credited': {
      const amount = moneyText(data.money, lang);
      subject = en ? `Deposit credited: ${amount}` : `Depósito acreditado: ${amount}`;
      line = en
        ? `A deposit of ${amount} was credited to ${p.organization} (${id}).`
        : `Se acreditó un depósito de ${amount} a ${p.organization} (${id}).`;
      page = 'deposits';
      break;
    }
    default:
      return null;
  }
  const paragraphs = [line, ...(reason ? [en ? `Reason: ${reason}` : `Motivo: ${reason}`] : [])];
  return compose(subject, paragraphs, { label: en ? 'See it in the portal' : 'Verlo en el portal', url: `${p.portalUrl}/portal/${page}` }, [
    en
      ? 'You receive this mail because you manage the team of this organization in Cambio.'
      : 'Recibe este correo porque administra el equipo de esta organización en Cambio.',
  ]);
}

const KIND_WORDS: Record<string, { en: string; es: string }> = {
  orders: { en: 'an exchange', es: 'un cambio' },
  withdrawals: { en: 'a withdrawal', es: 'un retiro' },
  destinations: { en: 'a new destination', es: 'un destino nuevo' },
  policy: { en: 'a change of the approval rules', es: 'un cambio de las reglas de aprobación' },
};

/**
 * A request of the organization that waits for its members' approval (docs/controls.md): what, how much,
 * who asked and how many more must agree, with a link to the portal's Approvals page.
 */
export function approvalRequestedMail(
  p: {
    kind: string;
    id: string;
    required: number;
    organization: string;
    initiator: string | null;
    money: { assetSymbol: string; assetDecimals: number; amountMinor: string } | null;
    portalUrl: string;
  },
  lang: MailLang,
): MailText {
  const en = lang === 'en';
  const words = KIND_WORDS[p.kind] ?? { en: 'a request', es: 'una solicitud' };
  const what = `${en ? words.en : words.es}${p.money ? ` ${en ? 'of' : 'de'} ${moneyText(p.money, lang)}` : ''}`;
  const subject = en ? `Waiting for your approval: ${what}` : `Espera su aprobación: ${what}`;
  const people = en
    ? p.required === 1
      ? '1 more person'
      : `${p.required} more people`
    : p.required === 1
      ? '1 persona más'
      : `${p.required} personas más`;
  const line = en
    ? `${p.initiator ?? 'Someone'} asked for ${what} at ${p.organization} (${p.id}). It needs the approval of ${people} before it goes to the operator.`
    : `${p.initiator ?? 'Alguien'} pidió ${what} en ${p.organization} (${p.id}). Necesita la aprobación de ${people} antes de pasar al operador.`;
  return compose(
    subject,
    [line],
    { label: en ? 'Approve or reject it in the portal' : 'Aprobarlo o rechazarlo en el portal', url: `${p.portalUrl}/portal/approvals` },
    [
      en
        ? 'You receive this mail because you may approve the requests of this organization in Cambio.'
        : 'Recibe este correo porque puede aprobar las solicitudes de esta organización en Cambio.',
    ],
  );
}
