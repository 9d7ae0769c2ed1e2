import type { Lang } from '@cambio/contract';
import { savedLang, saveLang, translator, type Translate } from '@cambio/web-kit';

/**
 * The desk's words in `en` and `es`, looked up by the web kit's i18n: its frame (navigation, banners, sign-in) and every error, which
 * the server words from the error catalogue in the chosen language (the SDK sends it as `x-lang`).
 * The language is chosen once per page load (saved; the switch reloads the page).
 */
const en = {
  'app.skip': 'Skip to content',
  'app.brand': 'Cambio desk',
  'app.sandbox': 'Sandbox.',
  'app.sandboxText': 'Simulated market and deposit addresses; no real money moves.',
  'app.totp': 'Set up two-step sign-in before your first decision:',
  'app.security': 'Your security',
  'app.nav': 'Desk',
  'app.signOut': 'Sign out',
  'app.language': 'Language',
  'app.loading': 'Loading the desk…',
  'app.unreachable': 'The desk cannot reach the service',
  'app.notFound': 'Not found',
  'app.notFoundText': 'There is no page at this address.',
  'nav.approvals': 'Approvals', 'nav.deposits': 'Deposits', 'nav.reconciliation': 'Reconciliation', 'nav.liabilities': 'Liabilities', 'nav.organizations': 'Organizations',
  'nav.market': 'Market', 'nav.venue': 'Venue', 'nav.audit': 'Audit', 'nav.staff': 'Staff',
  'signIn.title': 'Sign in to the desk',
  'signIn.intro': 'For the operator\'s staff. Every decision you take here is recorded under your name.',
  'signIn.email': 'Email', 'signIn.password': 'Password', 'signIn.code': 'Code',
  'signIn.codeHint': 'The six digits of your authenticator app, or one of your recovery codes.',
  'signIn.submit': 'Sign in',
  'error.network': 'The service did not answer. Check the connection and try again.',
  'error.trace': 'trace',
} as const;

export type MessageKey = keyof typeof en;

const es: Record<MessageKey, string> = {
  'app.skip': 'Ir al contenido',
  'app.brand': 'Mesa Cambio',
  'app.sandbox': 'Sandbox.',
  'app.sandboxText': 'Mercado y direcciones de depósito simulados; no se mueve dinero real.',
  'app.totp': 'Configure el inicio de sesión en dos pasos antes de su primera decisión:',
  'app.security': 'Su seguridad',
  'app.nav': 'Mesa',
  'app.signOut': 'Cerrar sesión',
  'app.language': 'Idioma',
  'app.loading': 'Cargando la mesa…',
  'app.unreachable': 'La mesa no puede contactar al servicio',
  'app.notFound': 'No encontrada',
  'app.notFoundText': 'No hay ninguna página en esta dirección.',
  'nav.approvals': 'Aprobaciones', 'nav.deposits': 'Depósitos', 'nav.reconciliation': 'Conciliación', 'nav.liabilities': 'Pasivos', 'nav.organizations': 'Organizaciones',
  'nav.market': 'Mercado', 'nav.venue': 'Bolsa', 'nav.audit': 'Auditoría', 'nav.staff': 'Personal',
  'signIn.title': 'Iniciar sesión en la mesa',
  'signIn.intro': 'Para el personal del operador. Cada decisión que tome aquí queda registrada con su nombre.',
  'signIn.email': 'Correo', 'signIn.password': 'Contraseña', 'signIn.code': 'Código',
  'signIn.codeHint': 'Los seis dígitos de su aplicación de autenticación, o uno de sus códigos de recuperación.',
  'signIn.submit': 'Iniciar sesión',
  'error.network': 'El servicio no respondió. Revise la conexión e intente de nuevo.',
  'error.trace': 'traza',
};

const LANG_KEY = 'cambio.desk.lang';

/** The language of this page load. */
export const LANG: Lang = savedLang(LANG_KEY);

export const t: Translate<MessageKey> = translator({ en, es }, LANG);

/** Saves the choice and reloads the page: every word and every server message follow it. */
export function chooseLang(l: Lang): void {
  if (l === LANG) return;
  saveLang(LANG_KEY, l);
  window.location.reload();
}
