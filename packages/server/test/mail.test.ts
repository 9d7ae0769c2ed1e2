// Mail for what people wait for, received by a real SMTP server on loopback: an invitation, a forgotten
// password (portal and desk) and the decisions on an organization's requests. The attacks: a reset link
// used twice or late, an unknown email answered like a known one, a token in a log line, too many requests.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { sql } from 'kysely';
import { totpCode } from '../src/domain/people/totp.ts';
import { resetRequestsSettled } from '../src/people/password-reset.ts';
import { Hidden } from '../src/config.ts';
import { smtpSender } from '../src/mail/smtp-sender.ts';
import { mailNotifications } from '../src/usecases/mail/notify.ts';
import { deliverDueMail } from '../src/usecases/mail/outbox.ts';
import { MAILED_EVENT_TYPES } from '../src/store/mail-store.ts';
import {
  ALL_PERMISSIONS,
  backends,
  btcUsdMarket,
  cookieFrom,
  makeHarness,
  PASSWORD,
  seedOrg,
  signedInMember,
  signedInStaff,
  usableDestination,
  withCookie,
  type Harness,
} from './harness.ts';
import { startMailReceiver, type MailReceiver } from './mail-receiver.ts';

const NEW_PASSWORD = 'a brand new passphrase 77';

for (const backend of backends()) {
  describe(`mail [${backend}]`, () => {
    let h: Harness;
    let rx: MailReceiver;
    const lines: string[] = [];
    before(async () => {
      rx = await startMailReceiver();
      const sink = new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      });
      h = await makeHarness({
        backend,
        env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' },
        deps: { mail: rx.sender, logger: pino({ level: 'trace' }, sink) },
      });
      await btcUsdMarket(h);
    });
    after(async () => {
      await h?.close();
      await rx?.close();
    });

    /** What the background tasks do, now: reset requests finish, decisions become mail, the outbox is sent. */
    const flush = async () => {
      await resetRequestsSettled();
      // Until every mailed event is past the cursor: on a PostgreSQL server shared with other work an event
      // waits until every older transaction is over, so one run may find nothing to take for a while.
      for (let tries = 0; ; tries++) {
        await mailNotifications({ ...h.deps, publicUrl: h.config.publicUrl });
        const behind = await sql<{ n: string }>`select count(*)::text as n from events e, mail_cursor c
          where e.type in (${sql.join(MAILED_EVENT_TYPES.map((t) => sql`${t}`))}) and (e.txid, e.seq) > (c.txid, c.seq)`.execute(
          h.store.db,
        );
        if (behind.rows[0]!.n === '0') break;
        if (tries > 2000) assert.fail(`${behind.rows[0]!.n} mailed events never passed the cursor`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await deliverDueMail(h.deps);
    };
    const post = (url: string, body: unknown, lang = 'en', ip = '10.0.0.1') =>
      h.app.inject({
        method: 'POST',
        url,
        remoteAddress: ip,
        headers: { 'content-type': 'application/json', 'x-lang': lang },
        payload: JSON.stringify(body),
      });
    const tokenOf = (link: string) => new URL(link).hash.slice(1);

    test("an invitation arrives by mail in the inviter's language, and its link signs the person in", async () => {
      const o = await seedOrg(h, { name: 'Acme Treasury' });
      const m = await h.op('POST', `/organizations/${o.orgId}/members`, {
        name: 'Ana',
        email: 'ana@acme.test',
        permissions: ['portal:read'],
      });
      assert.equal(m.status, 201, m.raw);
      await flush();
      const [mail] = rx.to('ana@acme.test');
      assert.ok(mail, 'one mail to ana@acme.test');
      assert.equal(mail.subject, 'Your invitation to Acme Treasury on Cambio');
      assert.match(mail.from, /^"?Cambio"? <no-reply@cambio\.test>$/);
      const link = rx.link(mail, 'http://127.0.0.1:8080/portal/invitation#');
      assert.equal(link, m.body.data.invitation.url, 'the mail carries the link the answer showed');
      assert.ok(mail.html.includes(link), 'the HTML part links it too');
      const r = await post('/portal/v1/invitations/accept', { token: tokenOf(link), password: PASSWORD });
      assert.equal(r.statusCode, 200, r.body);
      const me = await withCookie(h, cookieFrom(r), 'GET', '/portal/v1/session');
      assert.deepEqual([me.status, me.body.data.member.email, me.body.data.member.status], [200, 'ana@acme.test', 'active']);

      const s = await h.app.inject({
        method: 'POST',
        url: '/operator/v1/staff',
        headers: { authorization: 'Bearer test-operator-token-0123456789', 'content-type': 'application/json', 'x-lang': 'es' },
        payload: JSON.stringify({ name: 'Beto', email: 'beto@desk.test', role: 'viewer' }),
      });
      assert.equal(s.statusCode, 201, s.body);
      await flush();
      const [es] = rx.to('beto@desk.test');
      assert.equal(es?.subject, 'Su invitación a el operador en Cambio');
      assert.match(es!.text, /^Hola, Beto:/);
      assert.equal(rx.link(es!, 'http://127.0.0.1:8080/desk/invitation#'), JSON.parse(s.body).data.invitation.url);
    });

    test('an invitation sent again from the portal is mailed with its new link; the first link no longer signs in', async () => {
      const o = await seedOrg(h, { name: 'Resend Treasury' });
      const lead = await signedInMember(h, o.orgId, ['portal:read', 'portal:team']);
      const first = await withCookie(h, lead.cookie, 'POST', '/portal/v1/team/members', {
        name: 'Gil',
        email: 'gil@resend.test',
        permissions: ['portal:read'],
      });
      assert.equal(first.status, 201, first.raw);
      const again = await withCookie(h, lead.cookie, 'POST', `/portal/v1/team/members/${first.body.data.member.id}/invitation`);
      assert.equal(again.status, 200, again.raw);
      await flush();
      const links = rx.to('gil@resend.test').map((m) => rx.link(m, 'http://127.0.0.1:8080/portal/invitation#'));
      assert.deepEqual(links.sort(), [first.body.data.invitation.url, again.body.data.invitation.url].sort());
      const old = await post('/portal/v1/invitations/accept', { token: tokenOf(first.body.data.invitation.url), password: PASSWORD });
      assert.equal(old.statusCode, 410, old.body);
      const fresh = await post('/portal/v1/invitations/accept', { token: tokenOf(again.body.data.invitation.url), password: PASSWORD });
      assert.equal(fresh.statusCode, 200, fresh.body);
    });

    test('a forgotten password is reset from the mail: once, every session ends, the second factor is still asked', async () => {
      const s = await signedInStaff(h, 'approver');
      const asked = await post('/operator/v1/password-reset', { email: s.email.toUpperCase() });
      assert.equal(asked.statusCode, 200, asked.body);
      assert.deepEqual(asked.json().data, { requested: true });
      await flush();
      // The staff person's own invitation mail (from signing them up) may be there too, in either order.
      const mail = rx.to(s.email).find((m) => m.subject === 'Reset your Cambio password');
      assert.ok(
        mail,
        `no reset mail among: ${rx
          .to(s.email)
          .map((m) => m.subject)
          .join(', ')}`,
      );
      const link = rx.link(mail!, 'http://127.0.0.1:8080/desk/reset-password#');
      const weak = await post('/operator/v1/password-reset/complete', { token: tokenOf(link), password: 'short' });
      assert.deepEqual([weak.statusCode, weak.json().code], [422, 'auth.password_weak'], 'a weak password does not spend the link');
      const done = await post('/operator/v1/password-reset/complete', { token: tokenOf(link), password: NEW_PASSWORD });
      assert.deepEqual([done.statusCode, done.json().data], [200, { changed: true }], done.body);
      // the session the person had is over
      const old = await withCookie(h, s.cookie, 'GET', '/operator/v1/session');
      assert.equal(old.status, 401);
      // reuse of the token
      const again = await post('/operator/v1/password-reset/complete', { token: tokenOf(link), password: `${NEW_PASSWORD}!` });
      assert.deepEqual(
        [again.statusCode, again.json().code, again.json().message],
        [
          410,
          'auth.reset_invalid',
          'This password-reset link is not valid (unknown or already used); ask for a new one from the sign-in page.',
        ],
      );
      // the old password no longer signs in; the new one does, with the TOTP code still required
      const signIn = (body: unknown) => post('/operator/v1/session', body);
      assert.equal((await signIn({ email: s.email, password: PASSWORD })).json().code, 'auth.sign_in_failed');
      assert.equal((await signIn({ email: s.email, password: NEW_PASSWORD })).json().code, 'auth.code_required');
      const inNow = await signIn({ email: s.email, password: NEW_PASSWORD, code: totpCode(s.totpSecret!, new Date(Date.now() + 30_000)) });
      assert.equal(inNow.statusCode, 200, inNow.body);
    });

    test('portal: the reset mail speaks Spanish when asked in Spanish; an expired link is told apart', async () => {
      const o = await seedOrg(h);
      const accepted = await post('/portal/v1/invitations/accept', {
        token: '' + (await inviteToken(h, o.orgId, 'carla@org.test')),
        password: PASSWORD,
      });
      assert.equal(accepted.statusCode, 200, accepted.body);
      await flush();
      rx.mails.length = 0;
      await post('/portal/v1/password-reset', { email: 'carla@org.test' }, 'es');
      await flush();
      const [mail] = rx.to('carla@org.test');
      assert.equal(mail?.subject, 'Restablezca su contraseña de Cambio');
      const token = tokenOf(rx.link(mail!, 'http://127.0.0.1:8080/portal/reset-password#'));
      await sql`update password_resets set expires_at = now() - interval '1 second' where email = 'carla@org.test'`.execute(h.store.db);
      const late = await post('/portal/v1/password-reset/complete', { token, password: NEW_PASSWORD }, 'es');
      assert.deepEqual(
        [late.statusCode, late.json().code, late.json().message],
        [
          410,
          'auth.reset_expired',
          'Este enlace para restablecer la contraseña venció; pida uno nuevo desde la página de inicio de sesión.',
        ],
      );
      const unknown = await post('/portal/v1/password-reset/complete', { token: 'x'.repeat(43), password: NEW_PASSWORD });
      assert.deepEqual([unknown.statusCode, unknown.json().code], [410, 'auth.reset_invalid']);
      // the password is unchanged
      assert.equal((await post('/portal/v1/session', { email: 'carla@org.test', password: PASSWORD })).statusCode, 200);
    });

    test('an unknown email is answered exactly as a known one, and nothing is sent', async () => {
      const o = await seedOrg(h);
      await post('/portal/v1/invitations/accept', { token: await inviteToken(h, o.orgId, 'dora@org.test'), password: PASSWORD });
      await flush();
      rx.mails.length = 0;
      const strip = (b: string) => {
        const { timestamp: _t, traceId: _i, ...rest } = JSON.parse(b);
        return rest;
      };
      const known = await post('/portal/v1/password-reset', { email: 'dora@org.test' }, 'en', '10.0.0.2');
      const unknown = await post('/portal/v1/password-reset', { email: 'nobody@org.test' }, 'en', '10.0.0.2');
      const invited = await post('/portal/v1/password-reset', { email: 'ana-not-yet@org.test' }, 'en', '10.0.0.2');
      assert.deepEqual([known.statusCode, unknown.statusCode, invited.statusCode], [200, 200, 200]);
      assert.deepEqual(strip(unknown.body), strip(known.body));
      assert.deepEqual(strip(invited.body), strip(known.body));
      await flush();
      assert.deepEqual(
        rx.mails.map((m) => m.to),
        ['dora@org.test'],
      );
    });

    test('rate limited: past ten requests from one address 429; past three per email, silently no more mail', async () => {
      const o = await seedOrg(h);
      await post('/portal/v1/invitations/accept', { token: await inviteToken(h, o.orgId, 'eva@org.test'), password: PASSWORD });
      await flush();
      rx.mails.length = 0;
      const codes: number[] = [];
      for (let i = 0; i < 11; i++)
        codes.push((await post('/portal/v1/password-reset', { email: 'eva@org.test' }, 'en', '10.0.0.3')).statusCode);
      assert.deepEqual(codes, [...Array(10).fill(200), 429]);
      const limited = await post('/portal/v1/password-reset', { email: 'eva@org.test' }, 'en', '10.0.0.3');
      assert.equal(limited.json().code, 'rate_limit.exceeded');
      await flush();
      assert.equal(rx.to('eva@org.test').length, 3);
    });

    test("decisions and credits are mailed to the organization's team managers, after commit, with exact amounts", async () => {
      const o = await seedOrg(h, { name: 'Mailed Org', balances: { BTC: 100000000n, USD: 1000000n } });
      await post(
        '/portal/v1/invitations/accept',
        { token: await inviteToken(h, o.orgId, 'boss@org.test', ALL_PERMISSIONS), password: PASSWORD },
        'es',
      );
      await post('/portal/v1/invitations/accept', {
        token: await inviteToken(h, o.orgId, 'reader@org.test', ['portal:read']),
        password: PASSWORD,
      });
      await flush();
      rx.mails.length = 0;
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      const ord = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal((await h.op('POST', `/orders/${ord.body.data.id}/approve`)).status, 200);
      const dest = await usableDestination(h, o.key);
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dest,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '12345',
      });
      assert.equal(w.status, 201, w.raw);
      assert.equal((await h.op('POST', `/withdrawals/${w.body.data.id}/reject`, { reason: 'cuenta no verificada' })).status, 200);
      const arrival = await h.op('POST', '/deposits', {
        assetSymbol: 'BTC',
        network: 'bitcoin',
        amountMinor: '50000000',
        txid: `tx-${o.orgId}`,
      });
      assert.equal(arrival.status, 201, arrival.raw);
      assert.equal((await h.op('POST', `/deposits/${arrival.body.data.id}/attribute`, { organizationId: o.orgId })).status, 200);
      await flush();
      const mails = rx.to('boss@org.test');
      assert.deepEqual(mails.map((m) => m.subject).sort(), [
        'Cambio aprobado: 0,01 BTC por 646,75 USD',
        'Depósito acreditado: 0,5 BTC',
        'Retiro rechazado: 123,45 USD',
      ]);
      assert.match(mails.find((m) => m.subject.startsWith('Retiro'))!.text, /Motivo: cuenta no verificada/);
      assert.equal(rx.to('reader@org.test').length, 0, 'a member who does not manage the team is not mailed');
      await flush();
      assert.equal(rx.to('boss@org.test').length, 3, 'each decision is mailed once');
    });

    test('a request waiting for the organization is mailed to each member who may approve it, in their language; not to the initiator nor to others', async () => {
      const o = await seedOrg(h, { name: 'Approving Org', balances: { USD: 10000000n } });
      const APPROVER = [...ALL_PERMISSIONS, 'portal:policy', 'portal:approve'];
      const member = async (email: string, permissions: string[], lang: string) => {
        const r = await post(
          '/portal/v1/invitations/accept',
          { token: await inviteToken(h, o.orgId, email, permissions), password: PASSWORD },
          lang,
        );
        assert.equal(r.statusCode, 200, r.body);
        return cookieFrom(r);
      };
      const asker = await member('asker@approving.test', APPROVER, 'en');
      await member('ana@approving.test', APPROVER, 'es');
      await member('bob@approving.test', APPROVER, 'en');
      await member('manager@approving.test', ALL_PERMISSIONS, 'en');
      const set = await withCookie(h, asker, 'PUT', '/portal/v1/policy', {
        rules: [{ action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '10000', approvals: 1 }],
      });
      assert.equal(set.status, 200, set.raw);
      const dest = await usableDestination(h, o.key);
      await flush();
      rx.mails.length = 0;
      const small = await withCookie(h, asker, 'POST', '/api/v1/withdrawals', {
        destinationId: dest,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '9999',
      });
      assert.equal(small.status, 201, small.raw);
      const w = await withCookie(h, asker, 'POST', '/api/v1/withdrawals', {
        destinationId: dest,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '1234567',
      });
      assert.equal(w.status, 201, w.raw);
      assert.equal(w.body.data.approvals.waitingFor, 'organization');
      await flush();
      const [es] = rx.to('ana@approving.test');
      const [en] = rx.to('bob@approving.test');
      assert.equal(es?.subject, 'Espera su aprobación: un retiro de 12345,67 USD');
      assert.equal(en?.subject, 'Waiting for your approval: a withdrawal of 12345.67 USD');
      assert.match(
        en!.text,
        new RegExp(
          `asked for a withdrawal of 12345.67 USD at Approving Org \\(${w.body.data.id}\\)\\. It needs the approval of 1 more person`,
        ),
      );
      assert.match(es!.text, /Necesita la aprobación de 1 persona más/);
      assert.ok(en!.text.includes(`${h.config.publicUrl}/portal/approvals`), en!.text);
      assert.equal(rx.to('asker@approving.test').length, 0, 'the initiator is not asked to approve their own request');
      assert.equal(rx.to('manager@approving.test').length, 0, 'a member without portal:approve is not mailed');
      assert.equal(rx.mails.length, 2, 'the withdrawal below the rule waits for no one and is not mailed');
      await flush();
      assert.equal(rx.to('bob@approving.test').length, 1, 'mailed once');
    });

    test('a send that fails is logged without the link and retried; no token is ever in a log line', async () => {
      const down = smtpSender(new Hidden('smtp://127.0.0.1:1'), 'Cambio <no-reply@cambio.test>');
      const o = await seedOrg(h);
      await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'Fede', email: 'fede@org.test', permissions: [] });
      await deliverDueMail({ ...h.deps, mail: down });
      const row = await h.store.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('to_address', '=', 'fede@org.test')
        .executeTakeFirstOrThrow();
      assert.deepEqual([row.state, row.attempts], ['pending', 1]);
      assert.match(String(row.last_error), /ECONNREFUSED/);
      assert.ok(lines.some((l) => l.includes('a mail could not be sent: will retry')));
      // sent later, then its content is erased
      // An hour back: the database's now() has microseconds the service's clock (milliseconds) may not have reached yet.
      await sql`update mail_outbox set next_attempt_at = now() - interval '1 hour' where id = ${row.id}`.execute(h.store.db);
      await deliverDueMail(h.deps);
      const sent = await h.store.db.selectFrom('mail_outbox').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      assert.deepEqual([sent.state, sent.sealed], ['sent', null]);
      assert.equal(rx.to('fede@org.test').length, 1);
      down.close();

      const tokens = rx.seen.flatMap((m) => [...m.text.matchAll(/#([A-Za-z0-9_-]{43})/g)].map((x) => x[1]!));
      assert.ok(tokens.length >= 5, `tokens seen in mail: ${tokens.length}`);
      const logged = lines.join('');
      assert.ok(logged.length > 1000, 'the service did log');
      for (const t of tokens) assert.ok(!logged.includes(t), 'a token from a mail is in a log line');
      // nor in the outbox at rest: only sealed content, erased once sent
      const rows = await h.store.db.selectFrom('mail_outbox').select(['sealed']).execute();
      for (const t of tokens) assert.ok(!rows.some((r) => r.sealed?.includes(t)));
      // the operator sees the outbox in the metrics; finished mail is forgotten after its retention
      const metrics = await h.app.inject({
        method: 'GET',
        url: '/operator/v1/metrics',
        headers: { authorization: 'Bearer test-operator-token-0123456789' },
      });
      const counts = await h.store.mail.counts();
      assert.match(metrics.body, new RegExp(`cambio_mail_outbox\\{state="sent"\\} ${counts.sent}\\b`));
      assert.ok(counts.sent >= 5, JSON.stringify(counts));
      await h.store.mail.purgeFinished(new Date(Date.now() + 1000));
      assert.deepEqual(await h.store.mail.counts(), { pending: counts.pending, sent: 0, failed: 0 }, 'mail still to send is never purged');
    });
  });
}

describe('mail [without SMTP]', () => {
  let h: Harness;
  before(async () => {
    h = await makeHarness();
  });
  after(async () => h?.close());
  test('no mail is queued; a reset by mail is refused the same way for every email', async () => {
    const o = await seedOrg(h);
    assert.equal(
      (await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'G', email: 'g@org.test', permissions: [] })).status,
      201,
    );
    const rows = await h.store.db.selectFrom('mail_outbox').selectAll().execute();
    assert.equal(rows.length, 0);
    const r = await h.app.inject({
      method: 'POST',
      url: '/portal/v1/password-reset',
      headers: { 'content-type': 'application/json', 'x-lang': 'en' },
      payload: JSON.stringify({ email: 'g@org.test' }),
    });
    assert.deepEqual([r.statusCode, r.json().code], [409, 'auth.reset_unavailable']);
  });
});

async function inviteToken(h: Harness, orgId: string, email: string, permissions: string[] = ['portal:read']): Promise<string> {
  const m = await h.op('POST', `/organizations/${orgId}/members`, { name: email.split('@')[0], email, permissions });
  if (m.status !== 201) throw new Error(m.raw);
  return new URL(m.body.data.invitation.url).hash.slice(1);
}
