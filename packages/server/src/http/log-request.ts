import type { FastifyRequest } from 'fastify';

/**
 * What a request log line says about the request: Fastify's usual fields, with every credential in the
 * URL masked. A client that pastes its API key or the operator token into a query string must not put
 * it in our logs (secrets are shown once and stored only as hashes; the logs are read by more people
 * than the database). A part of the URL is masked when, once percent-decoded:
 * - it is the value of a parameter named like a credential (`access_token`, `key`, `token`, `password`…),
 * - it has a credential's shape: an API key (`…_live_…`), an operator or staff token (`op_…`, `ops_…`),
 *   a webhook secret (`whsec_…`), or any run of 40 or more key characters.
 * Record ids (`ord_…`, `org_…`) stay readable: they are how support finds a request.
 */
const CREDENTIAL_NAME =
  /^(access_?token|token|api_?key|x_?api_?key|key|secret|client_?secret|password|passwd|pass|auth|authorization|bearer|session|code|sig|signature)$/;
const CREDENTIAL_SHAPE = /_live_|(^|[^A-Za-z0-9])(ops?|whsec)_[A-Za-z0-9_-]{8,}|[A-Za-z0-9_.~+/=-]{40,}/;
const REDACTED = '[redacted]';

function decoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

const looksSecret = (text: string) => CREDENTIAL_SHAPE.test(decoded(text));

export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const maskedPath = path
    .split('/')
    .map((seg) => (looksSecret(seg) ? REDACTED : seg))
    .join('/');
  if (q < 0) return maskedPath;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      const value = eq < 0 ? '' : pair.slice(eq + 1);
      const normalized = decoded(name).trim().toLowerCase().replace(/-/g, '_').replace(/\[\]$/, '');
      if (looksSecret(name)) return REDACTED;
      if (CREDENTIAL_NAME.test(normalized) || looksSecret(value)) return `${name}=${REDACTED}`;
      return pair;
    });
  return `${maskedPath}?${params.join('&')}`;
}

export function requestForLog(req: FastifyRequest) {
  return {
    method: req.method,
    url: maskUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}
