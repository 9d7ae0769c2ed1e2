import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { totpCode } from '../src/domain/people/totp.ts';
import type { ManualClock } from '../src/domain/ports.ts';
import { ALL_PERMISSIONS, listAssets, makeHarness, OPERATOR_TOKEN, ORIGIN, SECRET, type Harness } from './harness.ts';

/**
 * No secret of a person (password, TOTP secret or code, recovery code, session id, invitation
 * token, API key, staff token) appears in a log line, or in any answer but the one that creates it. A
 * whole journey runs through an app logging at `trace` into memory: invitations accepted, TOTP enrolled
 * and used, signing in and failing to, a password changed, a key issued in the portal and used, a staff
 * person's token issued and used, Idempotency-Key replays; then every line and every answer is searched.
 */
interface Exchange {
  label: string;
  text: string;
}

describe('people: no secret in a log line or a later answer', () => {
  let h: Harness;
  let app: FastifyInstance;
  const logs: string[] = [];
  const exchanges: Exchange[] = [];
  /** Each secret, by what it is, and the label of the one answer allowed to show it (null: none). */
  const secrets = new Map<string, { what: string; shownBy: string | null }>();
  const learn = (what: string, value: string, shownBy: string | null) => {
    assert.ok(value.length >= 6, what);
    secrets.set(value, { what, shownBy });
  };

  before(async () => {
    h = await makeHarness({ manualClock: true });
    await listAssets(h, { USD: 2 });
    const stream = new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    });
    app = await buildApp({ ...h.deps, logger: pino({ level: 'trace' }, stream) });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await h?.close();
  });
  const clock = () => h.clock as ManualClock;

  async function send(
    label: string,
    method: string,
    url: string,
    o: { cookie?: string; bearer?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { 'x-lang': 'en', ...o.headers };
    if (o.cookie) Object.assign(headers, { cookie: o.cookie, origin: ORIGIN });
    if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
    if (o.key) headers['x-api-key'] = o.key;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const r = await app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(o.body !== undefined ? { payload: JSON.stringify(o.body) } : {}),
    });
    exchanges.push({ label, text: `${JSON.stringify(r.headers)}\n${r.body}` });
    const json = String(r.headers['content-type'] ?? '').startsWith('application/json') ? r.json() : null;
    const set = r.headers['set-cookie'];
    const cookie = typeof set === 'string' && /=[A-Za-z0-9_-]{20,}/.test(set) ? set.split(';')[0]! : null;
    return { status: r.statusCode, body: json, raw: r.body, cookie };
  }
  const op = (label: string, method: string, url: string, body?: unknown) =>
    send(label, method, `/operator/v1${url}`, { bearer: OPERATOR_TOKEN, body });
  const tokenOf = (url: string) => url.split('#')[1]!;

  test('a journey of members and staff leaves no secret in the log or in a later answer', async () => {
    const org = await op('org', 'POST', '/organizations', { name: 'Quiet', status: 'active', limits: {} });
    // A member invited by the operator accepts, enrols TOTP, signs in with a code and with a recovery code.
    const invited = await op('invite ana', 'POST', `/organizations/${org.body.data.id}/members`, {
      name: 'Ana',
      email: 'ana@quiet.test',
      permissions: ALL_PERMISSIONS,
    });
    learn('invitation token', tokenOf(invited.body.data.invitation.url), 'invite ana');
    const weak = 'short1';
    learn('weak password tried', weak, null);
    assert.equal(
      (
        await send('accept weak', 'POST', '/portal/v1/invitations/accept', {
          body: { token: tokenOf(invited.body.data.invitation.url), password: weak },
        })
      ).status,
      422,
    );
    const pw1 = 'ana first passphrase 1';
    learn('password', pw1, null);
    const accepted = await send('accept ana', 'POST', '/portal/v1/invitations/accept', {
      body: { token: tokenOf(invited.body.data.invitation.url), password: pw1 },
    });
    assert.equal(accepted.status, 200, accepted.raw);
    learn('session id', accepted.cookie!.split('=')[1]!, 'accept ana');
    let ana = accepted.cookie!;
    const again = await send('accept again', 'POST', '/portal/v1/invitations/accept', {
      body: { token: tokenOf(invited.body.data.invitation.url), password: pw1 },
    });
    assert.equal(again.status, 410);

    const enrol = await send('ana enrol', 'POST', '/portal/v1/totp/enrol', { cookie: ana });
    const totp: string = enrol.body.data.secret;
    learn('TOTP secret', totp, 'ana enrol');
    const firstCode = totpCode(totp, h.clock.now());
    learn('TOTP code', firstCode, null);
    const confirmed = await send('ana confirm', 'POST', '/portal/v1/totp/confirm', { cookie: ana, body: { code: firstCode } });
    assert.equal(confirmed.status, 200, confirmed.raw);
    const recovery: string[] = confirmed.body.data.recoveryCodes;
    recovery.forEach((c) => learn('recovery code', c, 'ana confirm'));
    assert.equal((await send('ana out', 'DELETE', '/portal/v1/session', { cookie: ana })).status, 200);

    const wrong = 'ana first passphrase 2';
    learn('mistyped password', wrong, null);
    assert.equal(
      (await send('ana wrong', 'POST', '/portal/v1/session', { body: { email: 'ana@quiet.test', password: wrong } })).status,
      401,
    );
    assert.equal(
      (await send('ana no code', 'POST', '/portal/v1/session', { body: { email: 'ana@quiet.test', password: pw1 } })).status,
      401,
    );
    clock().advance(30_000);
    const code = totpCode(totp, h.clock.now());
    learn('TOTP code', code, null);
    const signedIn = await send('ana sign in', 'POST', '/portal/v1/session', { body: { email: 'ana@quiet.test', password: pw1, code } });
    assert.equal(signedIn.status, 200, signedIn.raw);
    learn('session id', signedIn.cookie!.split('=')[1]!, 'ana sign in');
    assert.equal(
      (await send('ana replayed code', 'POST', '/portal/v1/session', { body: { email: 'ana@quiet.test', password: pw1, code } })).status,
      401,
    );
    const viaRecovery = await send('ana recovery', 'POST', '/portal/v1/session', {
      body: { email: 'ana@quiet.test', password: pw1, code: recovery[0] },
    });
    assert.equal(viaRecovery.status, 200, viaRecovery.raw);
    learn('session id', viaRecovery.cookie!.split('=')[1]!, 'ana recovery');
    ana = viaRecovery.cookie!;
    const pw2 = 'ana second passphrase 3';
    learn('password', pw2, null);
    assert.equal(
      (await send('ana password', 'POST', '/portal/v1/password', { cookie: ana, body: { currentPassword: pw1, newPassword: pw2 } })).status,
      200,
    );
    await send('ana me', 'GET', '/portal/v1/session', { cookie: ana });

    // Ana issues a key in the portal (with an Idempotency-Key, replayed once) and a program uses it every way.
    const idem = { 'idempotency-key': 'quiet-key-1' };
    const issued = await send('ana issues', 'POST', '/portal/v1/api-keys', {
      cookie: ana,
      body: { scopes: ['portal:read'] },
      headers: idem,
    });
    assert.equal(issued.status, 201, issued.raw);
    const key: string = issued.body.data.key;
    learn('API key', key, 'ana issues');
    learn('API key secret', key.split('.')[1]!, 'ana issues');
    const replayed = await send('ana issues again', 'POST', '/portal/v1/api-keys', {
      cookie: ana,
      body: { scopes: ['portal:read'] },
      headers: idem,
    });
    assert.equal(replayed.body.data.key, key, 'the replay is the one answer that may show the key again');
    secrets.get(key)!.shownBy = 'ana issues|ana issues again';
    secrets.get(key.split('.')[1]!)!.shownBy = 'ana issues|ana issues again';
    await send('key', 'GET', '/api/v1/balances', { key });
    await send('key bearer', 'GET', '/api/v1/balances', { bearer: key });
    await send('key in query', 'GET', `/api/v1/client?key=${encodeURIComponent(key)}`, { key });
    await send('ana keys', 'GET', '/portal/v1/api-keys', { cookie: ana });

    // Ana invites Bo, who accepts.
    const bo = await send('invite bo', 'POST', '/portal/v1/team/members', {
      cookie: ana,
      body: { name: 'Bo', email: 'bo@quiet.test', permissions: ['portal:read'] },
    });
    assert.equal(bo.status, 201, bo.raw);
    learn('invitation token', tokenOf(bo.body.data.invitation.url), 'invite bo');
    const pw3 = 'bo only passphrase 4';
    learn('password', pw3, null);
    const boIn = await send('accept bo', 'POST', '/portal/v1/invitations/accept', {
      body: { token: tokenOf(bo.body.data.invitation.url), password: pw3 },
    });
    learn('session id', boIn.cookie!.split('=')[1]!, 'accept bo');
    await send('team', 'GET', '/portal/v1/team/members', { cookie: ana });

    // A staff person: invited, accepts, enrols TOTP, issues a personal token and uses it.
    const staff = await op('invite staff', 'POST', '/staff', { name: 'Desk', email: 'desk@quiet.test', role: 'admin' });
    learn('invitation token', tokenOf(staff.body.data.invitation.url), 'invite staff');
    const pw4 = 'teller only passphrase 5';
    learn('password', pw4, null);
    const deskIn = await send('accept staff', 'POST', '/operator/v1/invitations/accept', {
      body: { token: tokenOf(staff.body.data.invitation.url), password: pw4 },
    });
    learn('session id', deskIn.cookie!.split('=')[1]!, 'accept staff');
    const desk = deskIn.cookie!;
    const dEnrol = await send('staff enrol', 'POST', '/operator/v1/totp/enrol', { cookie: desk });
    learn('TOTP secret', dEnrol.body.data.secret, 'staff enrol');
    const dCode = totpCode(dEnrol.body.data.secret, h.clock.now());
    learn('TOTP code', dCode, null);
    const dConfirm = await send('staff confirm', 'POST', '/operator/v1/totp/confirm', { cookie: desk, body: { code: dCode } });
    (dConfirm.body.data.recoveryCodes as string[]).forEach((c) => learn('recovery code', c, 'staff confirm'));
    const t = await send('staff token', 'POST', '/operator/v1/tokens', { cookie: desk, body: { name: 'script' } });
    assert.equal(t.status, 201, t.raw);
    learn('staff token', t.body.data.token, 'staff token');
    learn('staff token secret', t.body.data.token.split('.')[1], 'staff token');
    await send('token use', 'GET', '/operator/v1/orders', { bearer: t.body.data.token });
    await send('token in query', 'GET', `/operator/v1/orders?token=${encodeURIComponent(t.body.data.token)}`, {
      bearer: t.body.data.token,
    });
    await send('wrong token', 'GET', '/operator/v1/orders', { bearer: `${t.body.data.token.slice(0, -3)}zzz` });
    await send('tokens', 'GET', '/operator/v1/tokens', { cookie: desk });
    await send('staff list', 'GET', '/operator/v1/staff', { cookie: desk });
    await send('staff revoke', 'POST', `/operator/v1/tokens/${t.body.data.id}/revoke`, { cookie: desk });
    await op('audit', 'GET', '/audit?limit=200');
    await send('staff out', 'DELETE', '/operator/v1/session', { cookie: desk });

    // What the store keeps of them (hashes and sealed values) is a secret too: never in an answer or a line.
    const stored = await sql<{
      v: string;
    }>`select coalesce(password_hash, '') || ' ' || coalesce(totp_secret_sealed, '') as v from credentials`.execute(h.store.db);
    for (const r of stored.rows)
      for (const part of r.v.split(' ').filter((x) => x.length >= 20)) learn('stored hash or sealed value', part, null);
    const sessions = await sql<{ id_hash: string }>`select id_hash from sessions`.execute(h.store.db);
    sessions.rows.forEach((r) => learn('stored session hash', r.id_hash, null));
    learn('the operator token', OPERATOR_TOKEN, null);
    learn('the server secret', SECRET, null);

    assert.ok(logs.length >= exchanges.length, `${logs.length} log lines for ${exchanges.length} requests`);
    const inText = (text: string, s: string) => (/^\d{6}$/.test(s) ? new RegExp(`(?<![\\d.])${s}(?!\\d)`).test(text) : text.includes(s));
    const leaks: string[] = [];
    for (const [s, { what, shownBy }] of secrets) {
      const line = logs.find((l) => inText(l, s));
      if (line) leaks.push(`${what} in a log line: ${line.replaceAll(s, '[the secret]').slice(0, 240)}`);
      for (const e of exchanges) {
        if (shownBy?.split('|').includes(e.label)) continue;
        if (inText(e.text, s)) leaks.push(`${what} in the answer to "${e.label}"`);
      }
    }
    assert.deepEqual(leaks, []);
    assert.ok(secrets.size >= 30, `${secrets.size} secrets looked for`);
  });
});
