/**
 * A `DATABASE_URL` in libpq's multi-host form, `postgres://u@h1:5432,h2:5433/db?target_session_attrs=read-write`,
 * split into one single-host URL per host (node-postgres takes one host). `readWrite`: only a server
 * that accepts writes may be used (libpq's `read-write` or `primary`; also whenever several hosts are
 * listed, since the service writes on every connection and a standby would refuse it).
 */
export interface PgHosts {
  urls: string[];
  hosts: string[];
  readWrite: boolean;
}

const URL_FORM = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/;

export function parsePgHosts(url: string): PgHosts {
  const m = URL_FORM.exec(url);
  if (!m) return { urls: [url], hosts: [url], readWrite: false };
  const [, scheme, auth, hostList = '', path = '', query = ''] = m;
  const params = new URLSearchParams(query.replace(/^\?/, ''));
  const attrs = params.get('target_session_attrs') ?? 'any';
  params.delete('target_session_attrs');
  // pg reads `sslmode=prefer` as "TLS required"; libpq's prefer falls back to plain text, as does this.
  if (params.get('sslmode') === 'prefer' || params.get('sslmode') === 'allow') params.delete('sslmode');
  const rest = params.toString();
  const hosts = hostList.split(',').filter((h) => h !== '');
  if (hosts.length === 0) hosts.push('');
  const urls = hosts.map((h) => `${scheme}${auth !== undefined ? `${auth}@` : ''}${h}${path}${rest ? `?${rest}` : ''}`);
  return { urls, hosts: hosts.map((h) => h || 'localhost'), readWrite: attrs === 'read-write' || attrs === 'primary' || hosts.length > 1 };
}
