import { randomBytes } from 'node:crypto';
import { totpCode } from '../../packages/server/src/domain/people/totp.ts';
import { OPERATOR_TOKEN, type World } from './world.ts';

/**
 * People before the load: members accept their invitations, enrol TOTP, sign in with a
 * recovery code and issue a key in the portal; a staff person is invited, enrols TOTP and issues a
 * personal token; keys and tokens are issued with an Idempotency-Key (their kept answers hold them).
 * Each secret shown (password, session id, TOTP secret, recovery codes, key, token) joins the secrets
 * the log scan and the store scan look for. The keys and tokens are used once, so they pass through
 * the request lines too.
 */
export async function seedPeople(w: World, print: (line: string) => void): Promise<void> {
  if (!w.has('POST', '/portal/v1/invitations/accept') || !w.has('POST', '/operator/v1/tokens')) {
    print('people: not available yet');
    return;
  }
  const base = w.cluster.instances.find((i) => i.url)?.url;
  if (!base) throw new Error('people: no instance is listening');
  const people = { members: 0, staff: 0 };
  for (const org of w.orgs.slice(0, 2)) {
    if (!org.invitation) continue;
    const pw = secretPassword(w);
    const accepted = await send(base, 'POST', '/portal/v1/invitations/accept', { body: { token: org.invitation, password: pw } });
    let cookie = sessionOf(w, accepted, 'member');
    const codes = await enrolTotp(w, base, '/portal/v1', cookie);
    await send(base, 'DELETE', '/portal/v1/session', { cookie });
    const signedIn = await send(base, 'POST', '/portal/v1/session', {
      body: { email: accepted.data.member.email, password: pw, code: codes[0] },
    });
    cookie = sessionOf(w, signedIn, 'member');
    const idem = { 'idempotency-key': w.unique('people-key') };
    for (let i = 0; i < 2; i++) {
      const k = await send(base, 'POST', '/portal/v1/api-keys', { cookie, body: { scopes: ['portal:read'] }, headers: idem });
      w.secrets.add('portal API key', k.data.key);
      w.secrets.add('API key secret', String(k.data.key).split('.')[1]!);
      await send(base, 'GET', '/api/v1/balances', { headers: { 'x-api-key': k.data.key } });
    }
    people.members++;
  }
  const staff = await send(base, 'POST', '/operator/v1/staff', {
    operator: true,
    body: { name: 'Verify Desk', email: `desk-${w.seed}@verify.test`, role: 'approver' },
  });
  const invitation = String(staff.data.invitation.url).split('#')[1]!;
  w.secrets.add('invitation token', invitation);
  const pw = secretPassword(w);
  const cookie = sessionOf(
    w,
    await send(base, 'POST', '/operator/v1/invitations/accept', { body: { token: invitation, password: pw } }),
    'staff',
  );
  await enrolTotp(w, base, '/operator/v1', cookie);
  const idem = { 'idempotency-key': w.unique('people-token') };
  for (let i = 0; i < 2; i++) {
    const t = await send(base, 'POST', '/operator/v1/tokens', { cookie, body: { name: 'verify' }, headers: idem });
    w.secrets.add('staff token', t.data.token);
    await send(base, 'GET', '/operator/v1/orders', { headers: { authorization: `Bearer ${t.data.token}` } });
  }
  people.staff++;
  print(`people: ${people.members} member(s) and ${people.staff} staff person signed in with TOTP, issued keys and tokens`);
}

/**
 * Production: the bootstrap token decides nothing (docs/security.md), so the operator's decisions, arrivals,
 * adjustments and reconciliations are made by a staff admin signed in with TOTP, through a personal token.
 */
export async function deskToken(w: World): Promise<string> {
  const base = w.cluster.instances[0]!.url!;
  const staff = await send(base, 'POST', '/operator/v1/staff', {
    operator: true,
    body: { name: 'Verify Admin', email: `admin-${w.seed}@verify.test`, role: 'admin' },
  });
  const invitation = String(staff.data.invitation.url).split('#')[1]!;
  w.secrets.add('invitation token', invitation);
  const cookie = sessionOf(
    w,
    await send(base, 'POST', '/operator/v1/invitations/accept', { body: { token: invitation, password: secretPassword(w) } }),
    'staff',
  );
  await enrolTotp(w, base, '/operator/v1', cookie);
  const t = await send(base, 'POST', '/operator/v1/tokens', { cookie, body: { name: 'verify desk' } });
  w.secrets.add('staff token', t.data.token);
  return t.data.token as string;
}

function secretPassword(w: World): string {
  const pw = `verify ${randomBytes(12).toString('base64url')}`;
  w.secrets.add('password', pw);
  return pw;
}

function sessionOf(w: World, r: Answer, kind: 'member' | 'staff'): string {
  const c = r.cookies.find((x) => x.startsWith(kind === 'member' ? 'cambio_member=' : 'cambio_staff='));
  if (!c) throw new Error(`people: no ${kind} session was set`);
  const pair = c.split(';')[0]!;
  w.secrets.add('session id', pair.split('=')[1]!);
  return pair;
}

/** Enrols and confirms TOTP; answers the recovery codes. */
async function enrolTotp(w: World, base: string, api: string, cookie: string): Promise<string[]> {
  const e = await send(base, 'POST', `${api}/totp/enrol`, { cookie });
  w.secrets.add('TOTP secret', e.data.secret);
  const c = await send(base, 'POST', `${api}/totp/confirm`, { cookie, body: { code: totpCode(e.data.secret, new Date()) } });
  for (const code of c.data.recoveryCodes as string[]) w.secrets.add('recovery code', code);
  return c.data.recoveryCodes;
}

interface Answer {
  status: number;
  data: any;
  cookies: string[];
}

async function send(
  base: string,
  method: string,
  path: string,
  o: { body?: unknown; cookie?: string; operator?: boolean; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'x-lang': 'en', ...o.headers };
  // A cookie write must come from the service's own origin (its Host).
  if (o.cookie) Object.assign(headers, { cookie: o.cookie, origin: base });
  if (o.operator) headers.authorization = `Bearer ${OPERATOR_TOKEN}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(base + path, {
    method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`people: ${method} ${path} answered ${r.status}: ${text.slice(0, 200)}`);
  return { status: r.status, data: JSON.parse(text).data, cookies: r.headers.getSetCookie() };
}
