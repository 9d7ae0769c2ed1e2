import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebApp } from '../../deps.ts';
import { sendError } from './errors.ts';

/**
 * The two web apps (docs/design/people-and-apps.md), served by the service itself from what `npm ci` built
 * (scripts/build.mjs): the portal at /portal/ and the desk at /desk/. Same origin, nothing from a CDN.
 * Any path under an app that is not one of its files answers its index.html (client-side routes).
 */
export type { WebApp };

/**
 * packages/: four levels above this file in the sources (server/src/http/plugins/), two above the built
 * service (server/dist/main.js, packages/server/build.mjs); the nearest ancestor holding server/package.json.
 */
function findPackagesDir(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'server', 'package.json'))) return dir;
    if (dirname(dir) === dir) return fileURLToPath(new URL('../../../../', import.meta.url));
  }
}
const packagesDir = findPackagesDir(dirname(fileURLToPath(import.meta.url)));

/** Where the workspaces build them: packages/portal/dist and packages/desk/dist. */
export function defaultWebApps(): WebApp[] {
  return ['portal', 'desk'].map((name) => ({ name, dir: join(packagesDir, name, 'dist') }));
}

/**
 * No inline script anywhere (React sets styles through the CSSOM, which style-src does not govern);
 * no framing; every request goes to this origin only.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(reply: FastifyReply): FastifyReply {
  return (
    reply
      .header('content-security-policy', WEB_APP_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      // same-origin: the server's cookie-write check may fall back to Referer; nothing leaks elsewhere.
      .header('referrer-policy', 'same-origin')
      .header('cross-origin-opener-policy', 'same-origin')
      .header('cross-origin-resource-policy', 'same-origin')
  );
}

/** A file of the app's dist for this URL rest, or null (then index.html answers). Never leaves `dir`. */
function fileFor(dir: string, rest: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return null;
  }
  if (decoded === '' || decoded.includes('\0')) return null;
  const rel = normalize(decoded).replace(/^([/\\])+/, '');
  const abs = join(dir, rel);
  if (abs !== dir && !abs.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return null;
  try {
    return statSync(abs).isFile() ? rel : null;
  } catch {
    return null;
  }
}

/**
 * The app learns the service's mode from its page (a `<meta name="cambio-mode">`, not a script, so the
 * CSP stays strict): sandbox shows a banner on every page, production never does.
 */
function pageWithMode(index: string, mode: string, venue: WebAppVenue): string {
  return readFileSync(index, 'utf8').replace(
    /<meta name="cambio-mode" content="[^"]*"\s*\/?>/,
    `<meta name="cambio-mode" content="${mode}" /><meta name="cambio-venue" content="${venue}" />`,
  );
}

/**
 * Whether the service reads a venue (the simulated market of the sandbox, an exchange through CCXT) or
 * has none (production where the desk executes, docs/design/money-and-states.md): the desk offers to read the market's
 * balances from the venue only when there is one.
 */
export type WebAppVenue = 'venue' | 'none';

export async function webApps(
  app: FastifyInstance,
  apps: WebApp[] = defaultWebApps(),
  mode: 'sandbox' | 'production' = 'sandbox',
  venue: WebAppVenue = 'venue',
): Promise<void> {
  // serve: false: only our routes below send files, with the headers and the fallback they need.
  await app.register(fastifyStatic, {
    root: apps.map((a) => a.dir).find((d) => existsSync(d)) ?? packagesDir,
    serve: false,
    decorateReply: true,
  });

  for (const web of apps) {
    const prefix = `/${web.name}/`;
    const index = join(web.dir, 'index.html');
    const serve = async (req: FastifyRequest, reply: FastifyReply, rest: string) => {
      // /portal/v1 is an API (the people endpoints): an unknown path there is a 404 in the envelope, not the app.
      if (/^v[0-9]+(\/|$)/.test(rest)) return sendError(req, reply, 'request.not_found');
      if (!existsSync(index)) {
        // The app was not built (its workspace has no build, or the build was skipped).
        return sendError(req, reply, 'request.not_found');
      }
      securityHeaders(reply);
      const file = fileFor(web.dir, rest);
      if (file && file !== 'index.html') {
        // Vite names built assets by content hash: they never change under the same name.
        reply.header('cache-control', file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        return reply.sendFile(file, web.dir, { cacheControl: false });
      }
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(pageWithMode(index, mode, venue));
    };
    const opts = { schema: { hide: true }, config: { public: true } };
    app.get(`/${web.name}`, opts, async (_req, reply) => reply.redirect(prefix, 301));
    app.get(prefix, opts, async (req, reply) => serve(req, reply, ''));
    app.get(`${prefix}*`, opts, async (req, reply) => serve(req, reply, (req.params as { '*': string })['*'] ?? ''));
  }
}
