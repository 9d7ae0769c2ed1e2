import { randomBytes } from 'node:crypto';
import { totpCode } from '../src/domain/people/totp.ts';
import { PASSWORD } from './harness.ts';

/**
 * A staff admin's personal token (`ops_…`), over HTTP: invited with the bootstrap token, signed in, TOTP
 * enrolled. In production the bootstrap token decides nothing (docs/security.md), so a test of a running
 * service makes its decisions with this.
 */
export async function deskTokenOver(base: string, operatorToken: string): Promise<string> {
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(base + path, {
      method,
      headers: { 'x-lang': 'en', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await r.json()) as { data: any };
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
    return { json, cookies: r.headers.getSetCookie() };
  };
  const email = `desk-${randomBytes(4).toString('hex')}@desk.test`;
  const staff = await call(
    'POST',
    '/operator/v1/staff',
    { name: 'Desk Admin', email, role: 'admin' },
    { authorization: `Bearer ${operatorToken}` },
  );
  const token = String(staff.json.data.invitation.url).split('#')[1]!;
  const accepted = await call('POST', '/operator/v1/invitations/accept', { token, password: PASSWORD });
  const session = { cookie: accepted.cookies[0]!.split(';')[0]!, origin: base };
  const enrol = await call('POST', '/operator/v1/totp/enrol', undefined, session);
  await call('POST', '/operator/v1/totp/confirm', { code: totpCode(enrol.json.data.secret, new Date()) }, session);
  const t = await call('POST', '/operator/v1/tokens', { name: 'desk' }, session);
  return t.json.data.token as string;
}
