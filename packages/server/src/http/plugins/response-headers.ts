import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer carries: `X-Content-Type-Options: nosniff` everywhere; the APIs'
 * answers are never stored by a cache or a browser (`Cache-Control: no-store`: balances, keys shown once,
 * deposit addresses); the docs page may not be framed by another site.
 */
export function registerResponseHeaders(app: FastifyInstance) {
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    const path = req.url.split('?')[0] ?? '';
    if (API.test(path) && path !== '/api/v1/openapi.json') reply.header('cache-control', 'no-store');
    if (path === '/docs' || path.startsWith('/docs/')) reply.header('x-frame-options', 'DENY');
    done(null, payload);
  });
}

const API = /^\/(api|operator|portal)\/v1(\/|$)/;

/**
 * The one inline style swagger-ui's bundle applies as it starts (its hash, as Chromium reports it when
 * refusing it): allowed by that hash alone, so the page runs without a CSP refusal and no other
 * inline style is allowed. A new swagger-ui whose style differs shows up in the docs browser test.
 */
const SWAGGER_UI_INLINE_STYLE = "'unsafe-hashes' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/** The docs page's Content-Security-Policy (swagger-ui's own, with its inline hashes), framed by nobody, and plain http allowed (a local service). */
export const docsCsp = (header: string) =>
  header
    .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
    .replace(/\s*upgrade-insecure-requests;?/, '')
    .replace(/style-src 'self' https:\s*;/, `style-src 'self' https: ${SWAGGER_UI_INLINE_STYLE};`);
