import type { FastifyRequest } from 'fastify';

/**
 * What a request log line says about the request: Fastify's usual fields, with any long credential-shaped
 * run in the URL masked. A client that pastes its API key into a query string must not put it in our logs
 * (keys are shown once and stored only as a hash; the logs are read by more people than the database).
 */
const CREDENTIAL_SHAPED = /[A-Za-z0-9_.~-]{40,}/g;

export const maskUrl = (url: string) => url.replace(CREDENTIAL_SHAPED, '[redacted]');

export function requestForLog(req: FastifyRequest) {
  return {
    method: req.method,
    url: maskUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}
