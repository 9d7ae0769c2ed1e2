import { errorMessage, isErrorCode, type Lang } from '@cambio/contract';
import { CambioError } from '@cambio/sdk';

/**
 * The portal's words in `en` and `es`. Errors from the server are worded by the error catalogue of
 * @cambio/contract in the chosen language (the same one the server uses), never by the portal.
 */
const en = {
  'app.title': 'Cambio portal',
  'app.sandbox': 'Sandbox: nothing here is real money; deposit addresses are simulated.',
  'app.skip': 'Skip to content',
  'app.language': 'Language',
  'app.nav': 'Main',
  'nav.balances': 'Balances', 'nav.exchange': 'Exchange', 'nav.orders': 'Orders', 'nav.deposits': 'Deposits',
  'nav.withdrawals': 'Withdrawals', 'nav.ledger': 'Ledger', 'nav.team': 'Team', 'nav.apiKeys': 'API keys', 'nav.account': 'Account',
  'signin.title': 'Sign in', 'signin.email': 'Email', 'signin.password': 'Password', 'signin.code': 'Code',
  'signin.codeHint': 'The 6 digits of your authenticator app, or a recovery code.', 'signin.submit': 'Sign in',
  'signin.signedInAs': 'Signed in as {name}', 'signout': 'Sign out',
  'invite.title': 'Accept your invitation', 'invite.password': 'Choose a password', 'invite.confirm': 'Repeat the password',
  'invite.submit': 'Accept and sign in', 'invite.noToken': 'This link has no invitation in it. Open the link you were sent, whole.',
  'invite.mismatch': 'The two passwords differ.',
  'account.title': 'Account', 'account.password': 'Change password', 'account.current': 'Current password',
  'account.new': 'New password', 'account.change': 'Change password', 'account.changed': 'Password changed. Your other sessions were ended.',
  'totp.title': 'Two-step sign-in (TOTP)', 'totp.enrolled': 'Two-step sign-in is on.', 'totp.off': 'Two-step sign-in is off.',
  'totp.start': 'Set up two-step sign-in', 'totp.scan': 'Scan this code with an authenticator app, or type the setup key.',
  'totp.setupKey': 'Setup key', 'totp.qr': 'QR code of the setup key', 'totp.code': 'Code from the app', 'totp.confirm': 'Turn on',
  'totp.recovery': 'Recovery codes — shown once. Keep them somewhere safe: each signs you in once without the app.',
  'common.loading': 'Loading…', 'common.readAt': 'Read at {time}', 'common.refresh': 'Refresh', 'common.copy': 'Copy',
  'common.copied': 'Copied', 'common.prev': 'Previous page', 'common.next': 'Next page', 'common.page': 'Page {page} of {pages}',
  'common.none': 'Nothing yet.', 'common.cancel': 'Cancel', 'common.trace': 'Reference for support: {traceId}',
  'common.errorTitle': 'There is a problem', 'common.asset': 'Asset', 'common.amount': 'Amount', 'common.state': 'State',
  'common.created': 'Created', 'common.expiresIn': 'Expires in {time}', 'common.expired': 'Expired',
  'amount.empty': 'Enter an amount.', 'amount.invalid': 'Enter the amount as digits with a point for decimals, e.g. 1250.50.',
  'amount.too_many_decimals': '{asset} has {decimals} decimals: enter at most {decimals} digits after the point.',
  'amount.not_positive': 'Enter an amount greater than zero.', 'amount.willSend': 'The request will carry {minor} minimum units.',
  'balances.title': 'Balances', 'balances.available': 'Available', 'balances.held': 'Held', 'balances.total': 'Total',
  'balances.heldHint': 'Held: backing requests that wait for the operator.', 'balances.empty': 'No balances yet.',
  'exchange.title': 'Exchange', 'exchange.give': 'You deliver', 'exchange.get': 'You receive', 'exchange.amountOf': 'The amount is',
  'exchange.amountGive': 'what I deliver', 'exchange.amountGet': 'what I receive', 'exchange.amount': 'Amount in {asset}',
  'exchange.getQuote': 'Get quote', 'exchange.quote': 'Your quote', 'exchange.rate': 'Rate',
  'exchange.rateText': '1 {base} = {rate} {quote}', 'exchange.deliver': 'You deliver', 'exchange.receive': 'You receive',
  'exchange.validFor': 'Price held for {seconds} s', 'exchange.accept': 'Accept quote', 'exchange.expired': 'This quote has expired: its price is no longer held.',
  'exchange.newQuote': 'Get a new quote', 'exchange.noPrice': 'No price at the moment for this pair. Try again later.',
  'exchange.placed': 'Order placed: waiting for the operator; the amount is held.', 'exchange.seeOrders': 'See orders',
  'exchange.sameAsset': 'Choose two different assets.', 'exchange.cannotTrade': 'Your role does not allow trading.',
  'exchange.confirm': 'Accepting commits you to this exchange at this price. The amount will be held until the operator decides.',
  'orders.title': 'Orders', 'orders.deliver': 'Delivers', 'orders.receive': 'Receives',
  'state.pending_approval': 'Waiting for the operator; the amount is held', 'state.approved': 'Approved', 'state.completed': 'Completed',
  'state.rejected': 'Rejected; the hold was released', 'state.failed': 'Failed; the hold was released', 'state.credited': 'Credited',
  'state.unattributed': 'Waiting for attribution', 'state.open': 'Open', 'state.matched': 'Matched', 'state.expired': 'Expired',
  'deposits.title': 'Deposits', 'deposits.wallets': 'Where to send', 'deposits.network': 'Network', 'deposits.address': 'Address',
  'deposits.warning': 'Send only on the {network} network. The same address can be valid on several chains, and a transfer sent on another chain cannot be recovered.',
  'deposits.noWallets': 'The platform cannot receive any asset right now.', 'deposits.declare': 'Declare a deposit',
  'deposits.declareHint': 'Say about how much you will send; you get the exact amount to send, with a small tail that identifies it.',
  'deposits.declareSubmit': 'Declare', 'deposits.open': 'Open declaration', 'deposits.sendExactly': 'Send exactly',
  'deposits.reference': 'Reference', 'deposits.exactHint': 'Send exactly this amount: the last digits identify your deposit. Another amount waits for manual attribution.',
  'deposits.arrived': 'Deposits that arrived', 'deposits.txid': 'Transaction', 'deposits.cannotDeposit': 'Your role does not allow deposits.',
  'withdrawals.title': 'Withdrawals', 'withdrawals.destinations': 'Bank destinations', 'withdrawals.usable': 'Usable',
  'withdrawals.coolingDown': 'Cooling down: not usable yet', 'withdrawals.register': 'Register a bank destination',
  'withdrawals.label': 'Label', 'withdrawals.bankName': 'Bank', 'withdrawals.accountKind': 'Account kind', 'withdrawals.savings': 'Savings',
  'withdrawals.checking': 'Checking', 'withdrawals.accountNumber': 'Account number', 'withdrawals.holderName': 'Account holder',
  'withdrawals.holderDocument': 'Holder document', 'withdrawals.registerSubmit': 'Register destination',
  'withdrawals.registered': 'Registered. It becomes usable after the cooldown and once the operator registers it.',
  'withdrawals.request': 'Request a withdrawal', 'withdrawals.destination': 'Destination', 'withdrawals.noUsable': 'No destination is usable yet.',
  'withdrawals.requestSubmit': 'Request withdrawal', 'withdrawals.confirm': 'Withdraw {amount} {asset} to {dest}? The amount is held at once and leaves when the operator approves.',
  'withdrawals.confirmSubmit': 'Confirm withdrawal', 'withdrawals.requested': 'Withdrawal requested: waiting for the operator; the amount is held.',
  'withdrawals.list': 'Withdrawal requests',
  'ledger.title': 'Ledger', 'ledger.kind': 'Movement', 'ledger.account': 'Account',
  'team.title': 'Team', 'team.name': 'Name', 'team.email': 'Email', 'team.role': 'Role', 'team.status': 'Status',
  'team.invite': 'Invite a member', 'team.inviteSubmit': 'Invite', 'team.invited': 'Invitation created. Send this link to {name}; it is shown once and works for 7 days.',
  'team.invitationLink': 'Invitation link', 'team.remove': 'Remove {name}', 'team.confirmRemove': 'Remove {name}? Their keys and sessions stop at once.',
  'team.confirmRemoveSubmit': 'Remove member', 'team.changeRole': 'Change the role of {name}', 'team.permissionsOf': 'Permissions of {name}', 'team.saveRole': 'Save role',
  'app.cannotOperate': 'Your organization cannot operate yet: quotes and reads work, nothing that moves money does.',
  'team.permissions': 'Permissions', 'team.you': 'you', 'team.totp': 'Two-step',
  'team.status.invited': 'Invited', 'team.status.active': 'Active', 'team.status.removed': 'Removed',
  'keys.title': 'API keys', 'keys.issueKey': 'Issue key', 'keys.scopes': 'Scopes (no wider than your role)', 'keys.expiresAt': 'Expires on (optional)',
  'keys.allowedIps': 'Allowed IP addresses (optional, comma-separated)', 'keys.issue': 'Issue', 'keys.apiKey': 'API key',
  'keys.shownOnce': 'Copy it now: this is the only time the whole key is shown. It is stored only as a hash; a lost key is revoked and replaced.',
  'keys.done': 'I have copied it', 'keys.prefix': 'Prefix', 'keys.issuedBy': 'Issued by', 'keys.lastUsed': 'Last used', 'keys.expires': 'Expires',
  'keys.revoke': 'Revoke {prefix}', 'keys.revoked': 'Revoked', 'keys.active': 'Active', 'keys.never': 'never',
  'nav.webhooks': 'Webhooks', 'hooks.title': 'Webhooks', 'hooks.add': 'Add endpoint', 'hooks.url': 'URL', 'hooks.urlRequired': 'Enter the URL that receives the events.',
  'hooks.types': 'Event types (none chosen: every type)', 'hooks.create': 'Create endpoint', 'hooks.allTypes': 'every type',
  'hooks.secret': 'Signing secret of {url}', 'hooks.secretLabel': 'signing secret',
  'hooks.shownOnce': 'Copy it now: this is the only time the secret is shown. Your receiver verifies each delivery with it; a lost secret is rotated.',
  'hooks.status.enabled': 'Enabled', 'hooks.status.disabled': 'Disabled', 'hooks.failingSince': 'failing since', 'hooks.disabledAt': 'disabled since', 'hooks.enable': 'Enable {url}', 'hooks.actions': 'Actions',
  'hooks.deliveries': 'Deliveries to {url}', 'hooks.deliveriesOf': 'Deliveries to {url}', 'hooks.rotate': 'Rotate secret of {url}',
  'hooks.delete': 'Delete {url}', 'hooks.confirmDelete': 'Delete {url}? Nothing more is sent there.', 'hooks.confirmDeleteSubmit': 'Delete endpoint',
  'hooks.event': 'Event', 'hooks.attempts': 'Attempts', 'hooks.lastAnswer': 'Last answer', 'hooks.replay': 'Replay', 'hooks.replayEvent': 'Send {id} again',
  'hooks.replayed': '{id} will be sent again now.', 'hooks.state.pending': 'Pending', 'hooks.state.delivered': 'Delivered', 'hooks.state.failed': 'Failed',
  'hooks.notAllowed': 'Your role does not include webhooks (portal:webhooks).',
  'keys.confirmRevoke': 'Revoke {prefix}? Programs using it stop at once.', 'keys.confirmRevokeSubmit': 'Revoke key', 'keys.pickScope': 'Choose at least one scope.',
  'role.readOnly': 'Your role lets you see this page but not change it.',
  'error.network': 'The service cannot be reached. Check your connection and try again.',
} as const;

export type MessageKey = keyof typeof en;

const es: Record<MessageKey, string> = {
  'app.title': 'Portal Cambio',
  'app.sandbox': 'Sandbox: nada aquí es dinero real; las direcciones de depósito son simuladas.',
  'app.skip': 'Ir al contenido', 'app.language': 'Idioma', 'app.nav': 'Principal',
  'nav.balances': 'Saldos', 'nav.exchange': 'Cambio', 'nav.orders': 'Órdenes', 'nav.deposits': 'Depósitos',
  'nav.withdrawals': 'Retiros', 'nav.ledger': 'Libro mayor', 'nav.team': 'Equipo', 'nav.apiKeys': 'Claves de API', 'nav.account': 'Cuenta',
  'signin.title': 'Iniciar sesión', 'signin.email': 'Correo', 'signin.password': 'Contraseña', 'signin.code': 'Código',
  'signin.codeHint': 'Los 6 dígitos de su app de autenticación, o un código de recuperación.', 'signin.submit': 'Iniciar sesión',
  'signin.signedInAs': 'Sesión de {name}', 'signout': 'Cerrar sesión',
  'invite.title': 'Acepte su invitación', 'invite.password': 'Elija una contraseña', 'invite.confirm': 'Repita la contraseña',
  'invite.submit': 'Aceptar e iniciar sesión', 'invite.noToken': 'Este enlace no contiene una invitación. Abra el enlace recibido, completo.',
  'invite.mismatch': 'Las dos contraseñas no coinciden.',
  'account.title': 'Cuenta', 'account.password': 'Cambiar contraseña', 'account.current': 'Contraseña actual',
  'account.new': 'Contraseña nueva', 'account.change': 'Cambiar contraseña', 'account.changed': 'Contraseña cambiada. Se cerraron sus otras sesiones.',
  'totp.title': 'Inicio de sesión en dos pasos (TOTP)', 'totp.enrolled': 'El inicio en dos pasos está activo.', 'totp.off': 'El inicio en dos pasos está inactivo.',
  'totp.start': 'Configurar el inicio en dos pasos', 'totp.scan': 'Escanee este código con una app de autenticación, o escriba la clave de configuración.',
  'totp.setupKey': 'Clave de configuración', 'totp.qr': 'Código QR de la clave de configuración', 'totp.code': 'Código de la app', 'totp.confirm': 'Activar',
  'totp.recovery': 'Códigos de recuperación — se muestran una vez. Guárdelos en un lugar seguro: cada uno inicia sesión una vez sin la app.',
  'common.loading': 'Cargando…', 'common.readAt': 'Leído a las {time}', 'common.refresh': 'Actualizar', 'common.copy': 'Copiar',
  'common.copied': 'Copiado', 'common.prev': 'Página anterior', 'common.next': 'Página siguiente', 'common.page': 'Página {page} de {pages}',
  'common.none': 'Nada todavía.', 'common.cancel': 'Cancelar', 'common.trace': 'Referencia para soporte: {traceId}',
  'common.errorTitle': 'Hay un problema', 'common.asset': 'Activo', 'common.amount': 'Monto', 'common.state': 'Estado',
  'common.created': 'Creado', 'common.expiresIn': 'Vence en {time}', 'common.expired': 'Vencido',
  'amount.empty': 'Ingrese un monto.', 'amount.invalid': 'Ingrese el monto en dígitos con punto para los decimales, p. ej. 1250.50.',
  'amount.too_many_decimals': '{asset} tiene {decimals} decimales: ingrese como máximo {decimals} dígitos después del punto.',
  'amount.not_positive': 'Ingrese un monto mayor que cero.', 'amount.willSend': 'La solicitud llevará {minor} unidades mínimas.',
  'balances.title': 'Saldos', 'balances.available': 'Disponible', 'balances.held': 'Retenido', 'balances.total': 'Total',
  'balances.heldHint': 'Retenido: respalda solicitudes que esperan al operador.', 'balances.empty': 'Todavía no hay saldos.',
  'exchange.title': 'Cambio', 'exchange.give': 'Usted entrega', 'exchange.get': 'Usted recibe', 'exchange.amountOf': 'El monto es',
  'exchange.amountGive': 'lo que entrego', 'exchange.amountGet': 'lo que recibo', 'exchange.amount': 'Monto en {asset}',
  'exchange.getQuote': 'Cotizar', 'exchange.quote': 'Su cotización', 'exchange.rate': 'Tasa',
  'exchange.rateText': '1 {base} = {rate} {quote}', 'exchange.deliver': 'Usted entrega', 'exchange.receive': 'Usted recibe',
  'exchange.validFor': 'Precio garantizado por {seconds} s', 'exchange.accept': 'Aceptar cotización', 'exchange.expired': 'Esta cotización venció: su precio ya no está garantizado.',
  'exchange.newQuote': 'Pedir una cotización nueva', 'exchange.noPrice': 'No hay precio en este momento para este par. Intente más tarde.',
  'exchange.placed': 'Orden creada: espera al operador; el monto está retenido.', 'exchange.seeOrders': 'Ver órdenes',
  'exchange.sameAsset': 'Elija dos activos distintos.', 'exchange.cannotTrade': 'Su rol no permite operar.',
  'exchange.confirm': 'Al aceptar se compromete a este cambio a este precio. El monto quedará retenido hasta que el operador decida.',
  'orders.title': 'Órdenes', 'orders.deliver': 'Entrega', 'orders.receive': 'Recibe',
  'state.pending_approval': 'Espera al operador; el monto está retenido', 'state.approved': 'Aprobada', 'state.completed': 'Completada',
  'state.rejected': 'Rechazada; se liberó la retención', 'state.failed': 'Fallida; se liberó la retención', 'state.credited': 'Acreditado',
  'state.unattributed': 'Espera atribución', 'state.open': 'Abierta', 'state.matched': 'Conciliada', 'state.expired': 'Vencida',
  'deposits.title': 'Depósitos', 'deposits.wallets': 'Adónde enviar', 'deposits.network': 'Red', 'deposits.address': 'Dirección',
  'deposits.warning': 'Envíe solo por la red {network}. La misma dirección puede valer en varias cadenas, y una transferencia enviada por otra cadena no se puede recuperar.',
  'deposits.noWallets': 'La plataforma no puede recibir ningún activo en este momento.', 'deposits.declare': 'Declarar un depósito',
  'deposits.declareHint': 'Indique cuánto enviará aproximadamente; recibirá el monto exacto a enviar, con una pequeña cola que lo identifica.',
  'deposits.declareSubmit': 'Declarar', 'deposits.open': 'Declaración abierta', 'deposits.sendExactly': 'Envíe exactamente',
  'deposits.reference': 'Referencia', 'deposits.exactHint': 'Envíe exactamente este monto: los últimos dígitos identifican su depósito. Otro monto espera atribución manual.',
  'deposits.arrived': 'Depósitos recibidos', 'deposits.txid': 'Transacción', 'deposits.cannotDeposit': 'Su rol no permite depósitos.',
  'withdrawals.title': 'Retiros', 'withdrawals.destinations': 'Destinos bancarios', 'withdrawals.usable': 'Utilizable',
  'withdrawals.coolingDown': 'En espera: todavía no utilizable', 'withdrawals.register': 'Registrar un destino bancario',
  'withdrawals.label': 'Etiqueta', 'withdrawals.bankName': 'Banco', 'withdrawals.accountKind': 'Tipo de cuenta', 'withdrawals.savings': 'Ahorros',
  'withdrawals.checking': 'Corriente', 'withdrawals.accountNumber': 'Número de cuenta', 'withdrawals.holderName': 'Titular',
  'withdrawals.holderDocument': 'Documento del titular', 'withdrawals.registerSubmit': 'Registrar destino',
  'withdrawals.registered': 'Registrado. Será utilizable tras la espera y cuando el operador lo registre.',
  'withdrawals.request': 'Solicitar un retiro', 'withdrawals.destination': 'Destino', 'withdrawals.noUsable': 'Todavía no hay destinos utilizables.',
  'withdrawals.requestSubmit': 'Solicitar retiro', 'withdrawals.confirm': '¿Retirar {amount} {asset} a {dest}? El monto se retiene de inmediato y sale cuando el operador lo aprueba.',
  'withdrawals.confirmSubmit': 'Confirmar retiro', 'withdrawals.requested': 'Retiro solicitado: espera al operador; el monto está retenido.',
  'withdrawals.list': 'Solicitudes de retiro',
  'ledger.title': 'Libro mayor', 'ledger.kind': 'Movimiento', 'ledger.account': 'Cuenta',
  'team.title': 'Equipo', 'team.name': 'Nombre', 'team.email': 'Correo', 'team.role': 'Rol', 'team.status': 'Estado',
  'team.invite': 'Invitar a un miembro', 'team.inviteSubmit': 'Invitar', 'team.invited': 'Invitación creada. Envíe este enlace a {name}; se muestra una vez y vale 7 días.',
  'team.invitationLink': 'Enlace de invitación', 'team.remove': 'Quitar a {name}', 'team.confirmRemove': '¿Quitar a {name}? Sus claves y sesiones se detienen de inmediato.',
  'team.confirmRemoveSubmit': 'Quitar miembro', 'team.changeRole': 'Cambiar el rol de {name}', 'team.permissionsOf': 'Permisos de {name}', 'team.saveRole': 'Guardar rol',
  'app.cannotOperate': 'Su organización todavía no puede operar: las cotizaciones y las consultas funcionan, nada que mueva dinero.',
  'team.permissions': 'Permisos', 'team.you': 'usted', 'team.totp': 'Dos pasos',
  'team.status.invited': 'Invitado', 'team.status.active': 'Activo', 'team.status.removed': 'Quitado',
  'keys.title': 'Claves de API', 'keys.issueKey': 'Emitir clave', 'keys.scopes': 'Alcances (no más que su rol)', 'keys.expiresAt': 'Vence el (opcional)',
  'keys.allowedIps': 'Direcciones IP permitidas (opcional, separadas por comas)', 'keys.issue': 'Emitir', 'keys.apiKey': 'Clave de API',
  'keys.shownOnce': 'Cópiela ahora: es la única vez que se muestra la clave completa. Solo se guarda su hash; una clave perdida se revoca y se reemplaza.',
  'keys.done': 'Ya la copié', 'keys.prefix': 'Prefijo', 'keys.issuedBy': 'Emitida por', 'keys.lastUsed': 'Último uso', 'keys.expires': 'Vence',
  'keys.revoke': 'Revocar {prefix}', 'keys.revoked': 'Revocada', 'keys.active': 'Activa', 'keys.never': 'nunca',
  'nav.webhooks': 'Webhooks', 'hooks.title': 'Webhooks', 'hooks.add': 'Agregar destino', 'hooks.url': 'URL', 'hooks.urlRequired': 'Ingrese la URL que recibe los eventos.',
  'hooks.types': 'Tipos de evento (ninguno elegido: todos)', 'hooks.create': 'Crear destino', 'hooks.allTypes': 'todos',
  'hooks.secret': 'Secreto de firma de {url}', 'hooks.secretLabel': 'secreto de firma',
  'hooks.shownOnce': 'Cópielo ahora: es la única vez que se muestra el secreto. Su receptor verifica cada entrega con él; un secreto perdido se rota.',
  'hooks.status.enabled': 'Activo', 'hooks.status.disabled': 'Desactivado', 'hooks.failingSince': 'falla desde', 'hooks.disabledAt': 'desactivado desde', 'hooks.enable': 'Activar {url}', 'hooks.actions': 'Acciones',
  'hooks.deliveries': 'Entregas a {url}', 'hooks.deliveriesOf': 'Entregas a {url}', 'hooks.rotate': 'Rotar el secreto de {url}',
  'hooks.delete': 'Eliminar {url}', 'hooks.confirmDelete': '¿Eliminar {url}? No se le envía nada más.', 'hooks.confirmDeleteSubmit': 'Eliminar destino',
  'hooks.event': 'Evento', 'hooks.attempts': 'Intentos', 'hooks.lastAnswer': 'Última respuesta', 'hooks.replay': 'Reenviar', 'hooks.replayEvent': 'Reenviar {id}',
  'hooks.replayed': '{id} se enviará de nuevo ahora.', 'hooks.state.pending': 'Pendiente', 'hooks.state.delivered': 'Entregado', 'hooks.state.failed': 'Fallido',
  'hooks.notAllowed': 'Su rol no incluye webhooks (portal:webhooks).',
  'keys.confirmRevoke': '¿Revocar {prefix}? Los programas que la usan se detienen de inmediato.', 'keys.confirmRevokeSubmit': 'Revocar clave', 'keys.pickScope': 'Elija al menos un alcance.',
  'role.readOnly': 'Su rol le permite ver esta página pero no cambiarla.',
  'error.network': 'No se puede contactar al servicio. Revise su conexión e intente de nuevo.',
};

const dictionaries: Record<Lang, Record<MessageKey, string>> = { en, es };

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(lang: Lang): Translate {
  const d = dictionaries[lang];
  return (key, params = {}) => d[key].replace(/\{(\w+)\}/g, (m, k: string) => (params[k] !== undefined ? String(params[k]) : m));
}

/**
 * What to tell a person about a failed call: the catalogue's message for the code in the chosen
 * language (the server sent the same words, with the details filled in, which are preferred).
 */
export function describeError(e: unknown, lang: Lang, t: Translate): { message: string; code: string | null; traceId: string | null } {
  if (e instanceof CambioError) {
    if (e.status === 0) return { message: t('error.network'), code: e.code, traceId: null };
    const fromServer = e.message && !/^HTTP \d+/.test(e.message) ? e.message : null;
    const fromCatalogue = isErrorCode(e.code) ? errorMessage(e.code, lang) : null;
    return { message: fromServer ?? fromCatalogue ?? e.message, code: e.code, traceId: e.traceId };
  }
  return { message: e instanceof Error ? e.message : String(e), code: null, traceId: null };
}

export function initialLang(): Lang {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem('cambio.lang') : null;
  if (saved === 'en' || saved === 'es') return saved;
  return (navigator.language ?? '').toLowerCase().startsWith('es') ? 'es' : 'en';
}
