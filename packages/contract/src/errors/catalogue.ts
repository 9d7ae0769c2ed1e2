import { retryAdviceFor, type RetryAdvice } from './retry.ts';

/**
 * The one catalogue of result codes: the spec's codes plus Cambio's own. Every code carries its HTTP
 * status, retry advice and messages in every supported language. `{name}` placeholders are filled
 * from the error's params. docs/errors.md lists every code; errors.test.ts ties the two together.
 */
interface Entry {
  status: number;
  en: string;
  es: string;
  /** An invariant of the server broke: logged with its detail, never sent; the client sees internal.unexpected. */
  internal?: true;
}

const entries = {
  // request shape
  'request.invalid_json': { status: 400, en: 'The body is not valid JSON.', es: 'El cuerpo no es JSON válido.' },
  'request.validation_failed': { status: 422, en: 'The request is not valid: {detail}.', es: 'La solicitud no es válida: {detail}.' },
  'request.invalid_text': {
    status: 422,
    en: 'The text in {field} is not well-formed Unicode (a lone UTF-16 surrogate such as \\ud800): send each character whole.',
    es: 'El texto de {field} no es Unicode bien formado (un sustituto UTF-16 suelto como \\ud800): envíe cada carácter completo.',
  },
  'request.invalid_amount': {
    status: 422,
    en: 'The amount {field} is not valid: send an integer of minimum units (a JSON integer or a string of at most 78 digits, no fraction or exponent); only a signed amount, such as an adjustment, may be negative, and an adjustment cannot be zero.',
    es: 'El monto {field} no es válido: envíe un entero en unidades mínimas (un entero JSON o un texto de hasta 78 dígitos, sin fracción ni exponente); solo un monto con signo, como un ajuste, puede ser negativo, y un ajuste no puede ser cero.',
  },
  'request.invalid_query': {
    status: 400,
    en: 'The query is not valid: {detail}.',
    es: 'Los parámetros de consulta no son válidos: {detail}.',
  },
  'request.invalid_path': { status: 400, en: 'The path is not valid: {detail}.', es: 'La ruta no es válida: {detail}.' },
  'request.bad_request': { status: 400, en: 'The request is malformed.', es: 'La solicitud está mal formada.' },
  'request.not_found': { status: 404, en: 'There is no such endpoint.', es: 'No existe ese recurso.' },
  'request.method_not_allowed': {
    status: 405,
    en: 'This endpoint does not take {method}; it takes {allow}.',
    es: 'Este recurso no acepta {method}; acepta {allow}.',
  },
  'request.body_too_large': { status: 413, en: 'The body is too large.', es: 'El cuerpo es demasiado grande.' },
  'request.unsupported_media_type': { status: 415, en: 'Send the body as application/json.', es: 'Envíe el cuerpo como application/json.' },
  'request.timeout': { status: 408, en: 'The request took too long to arrive.', es: 'La solicitud tardó demasiado en llegar.' },
  'request.headers_too_large': {
    status: 431,
    en: 'The request headers are too large.',
    es: 'Los encabezados de la solicitud son demasiado grandes.',
  },
  // Idempotency-Key (docs/api-guide.md)
  'idempotency.key_invalid': {
    status: 400,
    en: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
    es: 'El encabezado Idempotency-Key debe tener de 1 a 255 caracteres ASCII imprimibles.',
  },
  'idempotency.key_reused': {
    status: 422,
    en: 'This Idempotency-Key was already used with another request (method, path or body); use a new key for a new request.',
    es: 'Esta Idempotency-Key ya se usó con otra solicitud (método, ruta o cuerpo); use una clave nueva para una solicitud nueva.',
  },
  'idempotency.in_progress': {
    status: 409,
    en: 'A request with this Idempotency-Key is still being processed; retry shortly to get its answer.',
    es: 'Una solicitud con esta Idempotency-Key todavía se está procesando; reintente en breve para obtener su respuesta.',
  },
  'rate_limit.exceeded': {
    status: 429,
    en: 'Too many requests from this address; wait and retry.',
    es: 'Demasiadas solicitudes desde esta dirección; espere y reintente.',
  },
  'internal.unexpected': {
    status: 500,
    en: 'Something went wrong on our side. Quote the traceId to support.',
    es: 'Algo salió mal de nuestro lado. Indique el traceId a soporte.',
  },
  // Raised when the database cannot be reached or refuses connections (nothing ran): transient, retry with backoff.
  // No primary database answers (docs/failover.md: a failover in progress): nothing was done or the outcome is held under the Idempotency-Key; retry after Retry-After.
  'store.unavailable': {
    status: 503,
    en: 'The database is not reachable right now (a failover may be in progress); nothing was changed by this answer. Retry after the Retry-After seconds, with the same Idempotency-Key for a write.',
    es: 'La base de datos no está accesible en este momento (puede haber una conmutación en curso); esta respuesta no cambió nada. Reintente pasados los segundos de Retry-After, con la misma Idempotency-Key para una escritura.',
  },
  'service.unavailable': {
    status: 503,
    en: 'The service is temporarily unavailable; retry shortly.',
    es: 'El servicio no está disponible por el momento; reintente en breve.',
  },

  // authentication and permissions
  'auth.unauthenticated': { status: 401, en: 'The credential does not authenticate.', es: 'La credencial no es válida.' },
  'auth.operator_name_invalid': {
    status: 400,
    en: 'X-Operator must be 1 to 64 letters, digits, spaces or . @ - _.',
    es: 'X-Operator debe tener de 1 a 64 letras, dígitos, espacios o . @ - _.',
  },
  'auth.bootstrap_cannot_decide': {
    status: 403,
    en: 'In production the bootstrap token sets up staff and the platform but decides nothing: approvals, rejections, fills, payouts, adjustments, deposits and reconciliation are made by a staff person signed in as themselves (with TOTP).',
    es: 'En producción el token de arranque configura al personal y la plataforma pero no decide nada: aprobaciones, rechazos, ejecuciones, pagos, ajustes, depósitos y conciliación los hace una persona del equipo con su propia sesión (con TOTP).',
  },
  'auth.scope_missing': {
    status: 403,
    en: 'This credential lacks the permission {scope}.',
    es: 'Esta credencial no tiene el permiso {scope}.',
  },
  'auth.cross_origin': {
    status: 403,
    en: "A write signed in by a cookie must come from this service's own pages (Origin or Referer); nothing was changed.",
    es: 'Una escritura con sesión de cookie debe venir de las páginas de este servicio (Origin o Referer); no se cambió nada.',
  },
  'auth.role_missing': {
    status: 403,
    en: 'Your role ({role}) cannot do this; it needs {needed}.',
    es: 'Su rol ({role}) no permite esto; requiere {needed}.',
  },
  'auth.totp_required': {
    status: 403,
    en: 'Enrol a second factor (TOTP) before doing this: POST …/totp/enrol, then …/totp/confirm.',
    es: 'Registre un segundo factor (TOTP) antes de hacer esto: POST …/totp/enrol y luego …/totp/confirm.',
  },
  'auth.step_up_required': {
    status: 403,
    en: 'Confirm this with a fresh code of your own authenticator app (a staff person signed in with two-step sign-in; the bootstrap token cannot); nothing was shown or changed.',
    es: 'Confirme esto con un código nuevo de su propia aplicación de autenticación (una persona del personal con inicio de sesión en dos pasos; el token de arranque no puede); no se mostró ni cambió nada.',
  },
  'auth.step_up_invalid': {
    status: 403,
    en: 'That code is not right or was already used; wait for the next code of your authenticator app and try again. Nothing was shown.',
    es: 'Ese código no es correcto o ya se usó; espere el próximo código de su aplicación de autenticación e intente de nuevo. No se mostró nada.',
  },
  'auth.sign_in_failed': {
    status: 401,
    en: 'The email, the password or the code is not right.',
    es: 'El correo, la contraseña o el código no son correctos.',
  },
  'auth.code_required': {
    status: 401,
    en: 'Enter the code of your authenticator app (or a recovery code).',
    es: 'Ingrese el código de su aplicación de autenticación (o un código de recuperación).',
  },
  'auth.sign_in_locked': {
    status: 429,
    en: 'Too many failed sign-ins; try again after {until} (in {seconds} s).',
    es: 'Demasiados intentos fallidos; vuelva a intentar después de {until} (en {seconds} s).',
  },
  'auth.invitation_invalid': {
    status: 410,
    en: 'This invitation is not valid any more (unknown, used or expired); ask for a new one.',
    es: 'Esta invitación ya no es válida (desconocida, usada o vencida); solicite una nueva.',
  },
  'auth.reset_invalid': {
    status: 410,
    en: 'This password-reset link is not valid (unknown or already used); ask for a new one from the sign-in page.',
    es: 'Este enlace para restablecer la contraseña no es válido (desconocido o ya usado); pida uno nuevo desde la página de inicio de sesión.',
  },
  'auth.reset_expired': {
    status: 410,
    en: 'This password-reset link has expired; ask for a new one from the sign-in page.',
    es: 'Este enlace para restablecer la contraseña venció; pida uno nuevo desde la página de inicio de sesión.',
  },
  'auth.reset_unavailable': {
    status: 409,
    en: 'This service sends no mail, so a password cannot be reset by mail; ask an administrator for a new invitation.',
    es: 'Este servicio no envía correo, así que la contraseña no se puede restablecer por correo; pida una invitación nueva a un administrador.',
  },
  'auth.password_weak': {
    status: 422,
    en: 'The password is too weak: use 12 to 200 characters, not one of the most common passwords.',
    es: 'La contraseña es demasiado débil: use de 12 a 200 caracteres y no una de las contraseñas más comunes.',
  },
  'auth.password_repetitive': {
    status: 422,
    en: 'The password is too repetitive: a short group of characters repeated is easy to guess.',
    es: 'La contraseña es demasiado repetitiva: un grupo corto de caracteres repetido es fácil de adivinar.',
  },
  'auth.password_contains_email': {
    status: 422,
    en: "The password must not contain the account's email address or its name part.",
    es: 'La contraseña no debe contener la dirección de correo de la cuenta ni su nombre de usuario.',
  },
  'auth.password_unchanged': {
    status: 422,
    en: 'The new password must differ from the current one.',
    es: 'La nueva contraseña debe ser distinta de la actual.',
  },
  'auth.current_password_wrong': {
    status: 422,
    en: 'The current password is not right; nothing was changed.',
    es: 'La contraseña actual no es correcta; no se cambió nada.',
  },
  'auth.totp_not_started': {
    status: 409,
    en: 'Start with POST …/totp/enrol, then confirm with a code.',
    es: 'Comience con POST …/totp/enrol y luego confirme con un código.',
  },
  'auth.totp_already_enrolled': { status: 409, en: 'A second factor is already enrolled.', es: 'Ya hay un segundo factor registrado.' },
  'auth.totp_code_invalid': {
    status: 422,
    en: 'The code is not right for this secret; check the clock of the device and try the next code.',
    es: 'El código no corresponde a este secreto; revise el reloj del dispositivo y pruebe el próximo código.',
  },
  'clients.client_cannot_operate': {
    status: 403,
    en: 'The organization cannot operate (not active, or no limits loaded); quotes still work.',
    es: 'La organización no puede operar (no está activa o no tiene límites cargados); las cotizaciones siguen funcionando.',
  },

  // operator records
  'organizations.not_found': { status: 404, en: 'No such organization.', es: 'No existe esa organización.' },
  'organizations.invalid_limits': { status: 422, en: 'The limits are not valid: {detail}.', es: 'Los límites no son válidos: {detail}.' },
  'members.not_found': { status: 404, en: 'No such member.', es: 'No existe ese miembro.' },
  'members.email_taken': {
    status: 409,
    en: 'A member with that email already exists in the organization.',
    es: 'Ya existe un miembro con ese correo en la organización.',
  },
  'members.permissions_too_wide': {
    status: 403,
    en: 'You cannot grant {permission}: it is wider than your own role.',
    es: 'No puede otorgar {permission}: excede su propio rol.',
  },
  'members.cannot_remove_self': {
    status: 409,
    en: 'You cannot remove yourself; ask another member with portal:team.',
    es: 'No puede quitarse a sí mismo; pídalo a otro miembro con portal:team.',
  },
  'members.removed': { status: 409, en: 'The member was removed.', es: 'El miembro fue dado de baja.' },
  'members.not_invited': {
    status: 409,
    en: 'The member already accepted the invitation or was removed; there is no invitation to send again.',
    es: 'El miembro ya aceptó la invitación o fue dado de baja; no hay invitación que reenviar.',
  },
  'members.name_not_allowed': {
    status: 422,
    en: "A person's name cannot contain a link (http, www., an address or a domain name), a line break or a control character; nothing was created.",
    es: 'El nombre de una persona no puede contener un enlace (http, www., una dirección o un nombre de dominio), un salto de línea ni un carácter de control; no se creó nada.',
  },
  'members.email_has_account': {
    status: 409,
    en: "This address already has a Cambio account in another organization: to protect it, a member cannot invite it (the invitation link would let you set that person's password). Ask the operator to add the person; nothing was created or sent.",
    es: 'Esta dirección ya tiene una cuenta de Cambio en otra organización: para protegerla, un miembro no puede invitarla (el enlace de invitación le permitiría fijar la contraseña de esa persona). Pida al operador que agregue a la persona; no se creó ni envió nada.',
  },
  'members.invitations_limited': {
    status: 429,
    en: 'Too many invitations in the last hour, from you or to this address; try again in {seconds} s. Nothing was sent.',
    es: 'Demasiadas invitaciones en la última hora, suyas o a esta dirección; reintente en {seconds} s. No se envió nada.',
  },
  'staff.not_found': { status: 404, en: 'No such staff person.', es: 'No existe esa persona del equipo.' },
  'staff.email_taken': {
    status: 409,
    en: 'A staff person with that email already exists.',
    es: 'Ya existe una persona del equipo con ese correo.',
  },
  'staff.last_admin': {
    status: 409,
    en: 'The last active admin cannot be removed or lose the admin role.',
    es: 'El último administrador activo no puede ser dado de baja ni perder el rol de administrador.',
  },
  'staff.removed': { status: 409, en: 'The staff person was removed.', es: 'La persona del equipo fue dada de baja.' },
  'staff.token_not_found': { status: 404, en: 'No such token of yours.', es: 'No existe ese token suyo.' },
  'keys.not_found': { status: 404, en: 'No such API key.', es: 'No existe esa clave de API.' },
  'keys.scope_too_wide': {
    status: 403,
    en: 'A key with {scope} cannot be issued: it is wider than the role of the member who holds it.',
    es: 'No se puede emitir una clave con {scope}: excede el rol del miembro que la tiene.',
  },
  'keys.expiry_in_past': {
    status: 422,
    en: 'expiresAt must be in the future: a key cannot be issued already expired.',
    es: 'expiresAt debe estar en el futuro: no se puede emitir una clave ya vencida.',
  },
  'keys.issuer_lacks_permission': {
    status: 403,
    en: 'The member does not hold portal:api_keys and cannot issue keys.',
    es: 'El miembro no tiene portal:api_keys y no puede emitir claves.',
  },

  // ledger and money
  'ledger.insufficient_balance': { status: 422, en: 'The available balance is insufficient.', es: 'El saldo disponible es insuficiente.' },
  'ledger.ledger_not_reconciled': {
    status: 409,
    en: 'Trading and withdrawals are paused; your balances are safe. Nothing was done; try again later.',
    es: 'El cambio y los retiros están en pausa; sus saldos están seguros. No se hizo nada; intente más tarde.',
  },
  'reconciliation.market_balances_required': {
    status: 422,
    en: 'No market venue is connected in production: send marketBalances as the desk read them.',
    es: 'No hay un mercado conectado en producción: envíe marketBalances tal como los leyó la mesa.',
  },
  'ledger.amount_overflow': {
    status: 422,
    en: 'An amount or a balance would exceed 78 digits of minimum units; nothing was changed.',
    es: 'Un monto o un saldo superaría 78 dígitos en unidades mínimas; no se cambió nada.',
  },
  'ledger.unbalanced_entry': {
    status: 500,
    internal: true,
    en: 'A ledger entry did not balance and was refused.',
    es: 'Un asiento contable no cuadraba y fue rechazado.',
  },
  // the journal log (docs/transparency.md)
  'transparency.entry_not_found': {
    status: 404,
    en: 'No journal entry of this organization has that id.',
    es: 'Ningún asiento de esta organización tiene ese id.',
  },
  'transparency.not_yet_logged': {
    status: 409,
    en: 'The entry has not joined the log yet; it does within seconds of its commit. Retry after Retry-After seconds.',
    es: 'El asiento todavía no entró en el registro; lo hace segundos después de confirmarse. Reintente pasados los segundos de Retry-After.',
  },
  'transparency.bad_tree_size': {
    status: 422,
    en: 'The tree size is not valid here: {detail}.',
    es: 'El tamaño de árbol no es válido aquí: {detail}.',
  },
  'liabilities.no_snapshot': {
    status: 404,
    en: 'No liabilities snapshot has been taken yet; one is taken daily at 00:00 UTC.',
    es: 'Todavía no se tomó ninguna instantánea de pasivos; se toma una cada día a las 00:00 UTC.',
  },
  'liabilities.total_too_large': {
    status: 422,
    en: 'What the platform owes in {asset} adds up to more than 2^256 − 1 minimum units, which a liabilities snapshot cannot encode; no snapshot was taken.',
    es: 'Lo que la plataforma adeuda en {asset} suma más de 2^256 − 1 unidades mínimas, que una instantánea de pasivos no puede codificar; no se tomó ninguna instantánea.',
  },

  // market
  'market.asset_not_listed': {
    status: 422,
    en: 'The asset {asset} is not listed at the market.',
    es: 'El activo {asset} no está listado en el mercado.',
  },
  'market.decimals_mismatch': {
    status: 422,
    en: 'assetDecimals {sent} does not match the market decimals of {asset} ({expected}).',
    es: 'assetDecimals {sent} no coincide con los decimales del mercado para {asset} ({expected}).',
  },
  'market.invalid_pair': { status: 422, en: 'The pair is not valid: {detail}.', es: 'El par no es válido: {detail}.' },
  'market.pair_not_found': { status: 404, en: 'That pair is not priced.', es: 'Ese par no tiene precio.' },
  'market.decimals_locked': {
    status: 409,
    en: 'The decimals of a listed asset with balances cannot change.',
    es: 'Los decimales de un activo listado con saldos no pueden cambiar.',
  },
  'market.venue_simulated': {
    status: 409,
    en: 'This instance runs the simulated venue (sandbox): it fills orders and pays withdrawals out by itself; fills, payouts and failures are recorded by the desk only in production.',
    es: 'Esta instancia usa el mercado simulado (sandbox): ejecuta las órdenes y paga los retiros por sí mismo; la mesa registra ejecuciones, pagos y fallas solo en producción.',
  },
  // docs/market.md: no fresh enough order book could be had from the venue (or it cannot be reached): nothing was created; retry after Retry-After.
  'market.unavailable': {
    status: 503,
    en: 'The market cannot price this now: its order book could not be read fresh enough; retry in a moment.',
    es: 'El mercado no puede cotizar esto ahora: no se pudo leer su libro de órdenes con la frescura necesaria; reintente en un momento.',
  },
  'market.venue_unknown_symbol': {
    status: 422,
    en: 'The venue has no spot market {symbol} trading between {base} and {quote}.',
    es: 'El mercado no tiene un mercado spot {symbol} entre {base} y {quote}.',
  },
  'market.decimals_in_use': {
    status: 409,
    en: 'The decimals of {asset} cannot change while an open deposit declaration, an unexpired quote, or a pending order or withdrawal carries them.',
    es: 'Los decimales de {asset} no pueden cambiar mientras una declaración de depósito abierta, una cotización vigente o una orden o un retiro pendiente los usen.',
  },

  // quotes
  'quotes.pair_not_priced': {
    status: 422,
    en: 'There is no price for {base}/{quote} at the moment.',
    es: 'No hay precio para {base}/{quote} en este momento.',
  },
  'quotes.amount_out_of_range': {
    status: 422,
    en: 'The base amount must be between {minUnits} {asset} and {maxUnits} {asset} ({min} to {max} minimum units){bound}.',
    es: 'El monto base debe estar entre {minUnits} {asset} y {maxUnits} {asset} (de {min} a {max} unidades mínimas){limite}.',
  },
  'quotes.exactly_one_amount': {
    status: 422,
    en: 'Send exactly one of amountBaseMinor and amountQuoteMinor.',
    es: 'Envíe exactamente uno de amountBaseMinor y amountQuoteMinor.',
  },
  'quotes.quote_below_executable_rate': {
    status: 422,
    en: 'No price at the moment: the offered price would be below the cost of execution.',
    es: 'Sin precio por el momento: el precio ofrecido quedaría por debajo del costo de ejecución.',
  },

  // orders
  'orders.quote_not_found': { status: 404, en: 'No such quote.', es: 'No existe esa cotización.' },
  'orders.quote_expired': { status: 410, en: 'The quote has expired; ask for a new one.', es: 'La cotización expiró; solicite una nueva.' },
  'orders.quote_already_used': {
    status: 410,
    en: 'The quote was already accepted; ask for a new one.',
    es: 'La cotización ya fue aceptada; solicite una nueva.',
  },
  'orders.limit_exceeded': {
    status: 422,
    en: 'The order exceeds the limit of {asset} for this organization.',
    es: 'La orden excede el límite de {asset} para esta organización.',
  },
  'orders.not_found': { status: 404, en: 'No such exchange request.', es: 'No existe esa solicitud de cambio.' },
  'orders.already_decided': {
    status: 409,
    en: 'The exchange request was already decided ({state}).',
    es: 'La solicitud de cambio ya fue decidida ({state}).',
  },
  'orders.already_approved_by_you': {
    status: 409,
    en: 'You already approved this exchange request; a second approval must come from another person.',
    es: 'Usted ya aprobó esta solicitud de cambio; la segunda aprobación debe venir de otra persona.',
  },
  'orders.approval_needs_person': {
    status: 403,
    en: 'This exchange request needs {required} approval(s) by staff persons under the operator’s policy; the bootstrap token cannot approve it.',
    es: 'Esta solicitud de cambio requiere {required} aprobación(es) de personas del equipo según la política del operador; el token de arranque no puede aprobarla.',
  },
  'orders.not_awaiting_execution': {
    status: 409,
    en: 'The exchange request is not awaiting execution ({state}): a fill or a failure is recorded once, on an approved request.',
    es: 'La solicitud de cambio no espera ejecución ({state}): una ejecución o una falla se registra una vez, sobre una solicitud aprobada.',
  },
  // docs/market.md "Unknown outcomes": the order was sent to the venue and its outcome there is not known yet; the desk waits for the lookup.
  'orders.venue_outcome_pending': {
    status: 409,
    en: 'The exchange request was sent to the venue and its outcome there is not known yet ({venueState}); it is looked up until it is: record a fill or a failure only after that.',
    es: 'La solicitud de cambio fue enviada al mercado y su resultado allí aún no se conoce ({venueState}); se consulta hasta conocerlo: registre una ejecución o una falla solo después.',
  },

  // deposits
  'deposits.declaration_not_found': { status: 404, en: 'No such deposit declaration.', es: 'No existe esa declaración de depósito.' },
  'deposits.declaration_not_open': {
    status: 409,
    en: 'The deposit declaration is no longer open ({state}); only an open one can be cancelled.',
    es: 'La declaración de depósito ya no está abierta ({state}); solo se puede cancelar una abierta.',
  },
  'deposits.declaration_already_open': {
    status: 409,
    en: 'A deposit declaration is already open.',
    es: 'Ya hay una declaración de depósito abierta.',
  },
  'deposits.amount_too_small': {
    status: 422,
    en: 'The amount is too small to be made unique: declare at least {minUnits} {asset} ({min} minimum units).',
    es: 'El monto es demasiado pequeño para hacerlo único: declare al menos {minUnits} {asset} ({min} unidades mínimas).',
  },
  'deposits.asset_not_receivable': {
    status: 422,
    en: 'The platform cannot receive {asset} at the moment.',
    es: 'La plataforma no puede recibir {asset} en este momento.',
  },
  'deposits.no_unique_amount': {
    status: 503,
    en: 'No unique amount is free near that amount right now; retry later, or declare a different amount.',
    es: 'No hay un monto único libre cerca de ese monto en este momento; reintente más tarde o declare otro monto.',
  },
  'deposits.txid_already_recorded': {
    status: 409,
    en: 'That transaction id was already recorded.',
    es: 'Ese identificador de transacción ya fue registrado.',
  },
  'deposits.not_found': { status: 404, en: 'No such deposit.', es: 'No existe ese depósito.' },
  'deposits.already_attributed': { status: 409, en: 'The deposit is already credited.', es: 'El depósito ya fue acreditado.' },
  'deposits.wallet_not_found': {
    status: 404,
    en: 'There is no deposit wallet for {asset}.',
    es: 'No hay billetera de depósito para {asset}.',
  },

  // withdrawals and destinations
  'withdrawals.destination_already_registered': {
    status: 409,
    en: 'That account is already registered.',
    es: 'Esa cuenta ya está registrada.',
  },
  'withdrawals.destination_not_found': {
    status: 422,
    en: 'No such withdrawal destination for this organization.',
    es: 'No existe ese destino de retiro para esta organización.',
  },
  'withdrawals.destination_not_usable': { status: 422, en: 'The destination is not usable yet.', es: 'El destino aún no se puede usar.' },
  'withdrawals.asset_mismatch': {
    status: 422,
    en: 'The asset does not match the destination ({asset}).',
    es: 'El activo no coincide con el del destino ({asset}).',
  },
  'withdrawals.limit_exceeded': {
    status: 422,
    en: 'The withdrawal exceeds the limit of {asset} for this organization.',
    es: 'El retiro excede el límite de {asset} para esta organización.',
  },
  'withdrawals.not_found': { status: 404, en: 'No such withdrawal.', es: 'No existe ese retiro.' },
  // the organization's own controls (docs/controls.md)
  'policy.unknown_action': {
    status: 422,
    en: 'Rule {index} has an unknown action ({action}): use order, withdrawal, destination or policy.',
    es: 'La regla {index} tiene una acción desconocida ({action}): use order, withdrawal, destination o policy.',
  },
  'policy.approvals_out_of_range': {
    status: 422,
    en: 'Rule {index} asks for {approvals} approvals: a rule asks for 0 to 5.',
    es: 'La regla {index} pide {approvals} aprobaciones: una regla pide de 0 a 5.',
  },
  'policy.rule_never_matches': {
    status: 422,
    en: 'Rule {index} can never match: rule {by} before it takes every request it would.',
    es: 'La regla {index} nunca puede aplicarse: la regla {by}, anterior, toma todas las solicitudes que tomaría.',
  },
  'policy.field_not_applicable': {
    status: 422,
    en: 'Rule {index} sets {field} on {action}, which has none, so it could never match: remove it.',
    es: 'La regla {index} fija {field} en {action}, que no lo tiene, así que nunca podría aplicarse: quítelo.',
  },
  'approvals.not_found': {
    status: 404,
    en: 'No such request waits for the approval of this organization.',
    es: 'No hay tal solicitud esperando la aprobación de esta organización.',
  },
  'approvals.waiting_for_organization': {
    status: 409,
    en: "The request still waits for its organization's approvals ({given} of {required}); it can be decided once they are given.",
    es: 'La solicitud aún espera las aprobaciones de su organización ({given} de {required}); podrá decidirse cuando estén dadas.',
  },
  'approvals.own_request': {
    status: 409,
    en: 'You asked for this request: another member must approve it.',
    es: 'Usted pidió esta solicitud: debe aprobarla otro miembro.',
  },
  'approvals.already_given': {
    status: 409,
    en: 'You already approved this request; the next approval must come from another member.',
    es: 'Usted ya aprobó esta solicitud; la próxima aprobación debe venir de otro miembro.',
  },
  'approvals.not_waiting': {
    status: 409,
    en: 'The request no longer waits for the organization ({state}).',
    es: 'La solicitud ya no espera a la organización ({state}).',
  },
  // the operator's policy (docs/controls.md)
  'policies.unknown_action': {
    status: 422,
    en: 'Rule {index} names the action {action}; use order, withdrawal, adjustment or attribution.',
    es: 'La regla {index} nombra la acción {action}; use order, withdrawal, adjustment o attribution.',
  },
  'policies.approvals_out_of_range': {
    status: 422,
    en: 'Rule {index} asks for {approvals} approvals; a rule asks for 1 to 5 staff persons.',
    es: 'La regla {index} pide {approvals} aprobaciones; una regla pide de 1 a 5 personas del equipo.',
  },
  'policies.unknown_role': {
    status: 422,
    en: 'Rule {index} names the role "{role}"; roles that may count are viewer, approver and admin (at least one).',
    es: 'La regla {index} nombra el rol "{role}"; los roles que pueden contar son viewer, approver y admin (al menos uno).',
  },
  'policies.rule_never_matches': {
    status: 422,
    en: 'Rule {index} can never match: rule {by} before it takes every request it would.',
    es: 'La regla {index} nunca puede aplicarse: la regla {by}, anterior, toma todas las solicitudes que tomaría.',
  },
  'policies.draft_not_found': { status: 404, en: 'There is no such draft.', es: 'No existe ese borrador.' },
  'policies.draft_not_open': {
    status: 409,
    en: 'This draft can no longer be published ({state}); write a new one from the rules in force.',
    es: 'Este borrador ya no puede publicarse ({state}); escriba uno nuevo a partir de las reglas vigentes.',
  },
  'policies.own_draft': {
    status: 409,
    en: 'You wrote this draft: another admin must publish it.',
    es: 'Usted escribió este borrador: debe publicarlo otro administrador.',
  },
  'policies.publish_needs_person': {
    status: 403,
    en: 'A draft is published by an admin signed in as themselves; the bootstrap token cannot publish it.',
    es: 'Un borrador lo publica un administrador con su propia sesión; el token de arranque no puede publicarlo.',
  },
  'policies.role_not_counted': {
    status: 403,
    en: 'Your role ({role}) does not count for this request under the operator’s policy; it needs {roles}.',
    es: 'Su rol ({role}) no cuenta para esta solicitud según la política del operador; requiere {roles}.',
  },
  'requests.not_found': { status: 404, en: 'There is no such request.', es: 'No existe esa solicitud.' },
  'requests.not_waiting': {
    status: 409,
    en: 'The request no longer waits for approvals ({state}).',
    es: 'La solicitud ya no espera aprobaciones ({state}).',
  },
  'requests.already_approved_by_you': {
    status: 409,
    en: 'You already approved this request (or asked for it); the next approval must come from another person.',
    es: 'Usted ya aprobó esta solicitud (o la pidió); la próxima aprobación debe venir de otra persona.',
  },
  'requests.approval_needs_person': {
    status: 403,
    en: 'This needs {required} approval(s) by staff persons under the operator’s policy; the bootstrap token cannot give one.',
    es: 'Esto requiere {required} aprobación(es) de personas del equipo según la política del operador; el token de arranque no puede darla.',
  },
  'requests.already_pending': {
    status: 409,
    en: 'An attribution of this arrival already waits for approvals.',
    es: 'Una atribución de este ingreso ya espera aprobaciones.',
  },
  'withdrawals.already_decided': {
    status: 409,
    en: 'The withdrawal was already decided ({state}).',
    es: 'El retiro ya fue decidido ({state}).',
  },
  'withdrawals.already_approved_by_you': {
    status: 409,
    en: 'You already approved this withdrawal; a second approval must come from another person.',
    es: 'Usted ya aprobó este retiro; la segunda aprobación debe venir de otra persona.',
  },
  'withdrawals.approval_needs_person': {
    status: 403,
    en: 'This withdrawal needs {required} approval(s) by staff persons under the operator’s policy; the bootstrap token cannot approve it.',
    es: 'Este retiro requiere {required} aprobación(es) de personas del equipo según la política del operador; el token de arranque no puede aprobarlo.',
  },
  'withdrawals.not_awaiting_payout': {
    status: 409,
    en: 'The withdrawal is not awaiting payout ({state}): a payout or a failure is recorded once, on an approved withdrawal.',
    es: 'El retiro no espera pago ({state}): un pago o una falla se registra una vez, sobre un retiro aprobado.',
  },
  // events
  'events.cursor_not_found': {
    status: 404,
    en: 'No event of this organization has that id; start again without after.',
    es: 'Ningún evento de esta organización tiene ese id; empiece de nuevo sin after.',
  },
  'webhooks.not_found': { status: 404, en: 'No such webhook endpoint.', es: 'No existe ese endpoint de webhook.' },
  'webhooks.url_invalid': { status: 422, en: 'The webhook url is not valid: {detail}.', es: 'La url del webhook no es válida: {detail}.' },
  'webhooks.url_refused': {
    status: 422,
    en: 'The webhook url is refused: its address is not allowed. Use a url at a public address; nothing was created.',
    es: 'La url del webhook fue rechazada: su dirección no está permitida. Use una url en una dirección pública; no se creó nada.',
  },
  'webhooks.too_many': {
    status: 409,
    en: 'The organization already has {max} webhook endpoints; delete one first.',
    es: 'La organización ya tiene {max} endpoints de webhook; elimine uno primero.',
  },
  'webhooks.event_not_found': {
    status: 404,
    en: 'No event of this organization has that id.',
    es: 'Ningún evento de esta organización tiene ese id.',
  },
  'deposits.invalid_reference': {
    status: 422,
    en: 'The reference is not a deposit reference: 8 letters and digits, such as K7QM-3XPA (leave it empty when the transfer quoted none).',
    es: 'La referencia no es una referencia de depósito: 8 letras y dígitos, como K7QM-3XPA (déjela vacía si la transferencia no citó ninguna).',
  },
  'destinations.not_found': { status: 404, en: 'No such destination.', es: 'No existe ese destino.' },
  'destinations.kind_mismatch': {
    status: 422,
    en: '{asset} is a {kind} asset: a bank account takes a fiat asset, a crypto address a crypto one.',
    es: '{asset} es un activo {kind}: una cuenta bancaria recibe un activo fiat, una dirección cripto uno cripto.',
  },
  'destinations.network_not_supported': {
    status: 422,
    en: 'The platform does not pay {asset} out on the network {network}.',
    es: 'La plataforma no paga {asset} en la red {network}.',
  },
  'destinations.invalid_address': {
    status: 422,
    en: 'The address is not a valid address of the network {network}; check it and send it again.',
    es: 'La dirección no es una dirección válida de la red {network}; revísela y envíela de nuevo.',
  },
  // Statements (docs/api-guide.md, Statements)
  'statements.month_malformed': {
    status: 422,
    en: 'The month {month} is not a month: write it as YYYY-MM, such as 2026-01.',
    es: 'El mes {month} no es un mes: escríbalo como AAAA-MM, por ejemplo 2026-01.',
  },
  'statements.month_in_future': {
    status: 422,
    en: 'The month {month} has not started yet: a statement covers the current month or an earlier one.',
    es: 'El mes {month} todavía no empezó: un estado de cuenta cubre el mes en curso o uno anterior.',
  },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof entries;
export type Lang = 'en' | 'es';
export const LANGS: readonly Lang[] = ['en', 'es'];

export interface CatalogueEntry {
  code: ErrorCode;
  status: number;
  retry: RetryAdvice;
  messages: Record<Lang, string>;
  internal: boolean;
}

export const errorCatalogue: Readonly<Record<ErrorCode, CatalogueEntry>> = Object.fromEntries(
  (Object.entries(entries) as [ErrorCode, Entry][]).map(([code, e]) => [
    code,
    { code, status: e.status, retry: retryAdviceFor(e.status), messages: { en: e.en, es: e.es }, internal: e.internal === true },
  ]),
) as Record<ErrorCode, CatalogueEntry>;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(errorCatalogue, code);
}

/** The message of a code in a language, with `{name}` placeholders filled from params. */
export function errorMessage(code: ErrorCode, lang: Lang, params: Record<string, string> = {}): string {
  return errorCatalogue[code].messages[lang].replace(/\{(\w+)\}/g, (m, k: string) => params[k] ?? m);
}

const first = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);

/**
 * The language of messages (docs/design/money-and-states.md): `x-lang` (`en` or `es`) when sent and known; otherwise
 * `Accept-Language`, its supported language of highest weight (`en-GB;q=0.8, es;q=0.5` is English);
 * otherwise `es`.
 */
export function pickLang(xLang: string | string[] | undefined, acceptLanguage?: string | string[]): Lang {
  const v = first(xLang)?.trim().toLowerCase().slice(0, 2);
  if (v === 'en' || v === 'es') return v;
  return fromAcceptLanguage(first(acceptLanguage)) ?? 'es';
}

function fromAcceptLanguage(header: string | undefined): Lang | undefined {
  if (!header) return undefined;
  let best: { lang: Lang; q: number } | undefined;
  for (const part of header.slice(0, 500).split(',')) {
    const [tag, ...params] = part.trim().split(';');
    const lang = tag?.trim().toLowerCase().split('-')[0];
    if (lang !== 'en' && lang !== 'es') continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qp === undefined ? 1 : Number(qp.slice(2));
    if (!(q > 0 && q <= 1)) continue;
    if (!best || q > best.q) best = { lang, q };
  }
  return best?.lang;
}
