/**
 * The one Vite set-up of both web apps (packages/portal, packages/desk): each app's vite.config.ts names
 * itself and its title, and gets the same build and the same page. Served by the service at /<name>/
 * (packages/server/src/http/plugins/web-apps.ts), same origin, no CDN.
 */
import react from '@vitejs/plugin-react';
import { defaultClientConditions, type UserConfig } from 'vite';

export interface WebApp {
  /** Its path under the service: `/portal/`, `/desk/`. */
  name: 'portal' | 'desk';
  title: string;
  /** An SVG in the app's public/ folder. */
  icon?: string;
}

/**
 * The page: no inline script or style (the CSP allows only 'self'); the mode meta is filled in by the
 * server on every answer, and the app reads it from there.
 */
export function webAppPage(app: WebApp): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    '<meta name="color-scheme" content="light" />',
    '<meta name="cambio-mode" content="" />',
    `<title>${app.title}</title>`,
    ...(app.icon ? [`<link rel="icon" type="image/svg+xml" href="/${app.name}/${app.icon}" />`] : []),
    '</head>',
    '<body>',
    '<div id="root"></div>',
    '<script type="module" src="/src/main.tsx"></script>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export function webAppConfig(app: WebApp): UserConfig {
  return {
    base: `/${app.name}/`,
    // index.html of each app is a stand-in: the page is this one (the same head for both apps).
    plugins: [react(), { name: 'cambio-web-app-page', transformIndexHtml: { order: 'pre', handler: () => webAppPage(app) } }],
    // Workspace packages (@cambio/sdk) resolve to their TypeScript sources: an SDK edit needs no rebuild.
    resolve: { conditions: ['@cambio/source', ...defaultClientConditions] },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // Nothing inlined as data: URIs (the CSP allows only 'self'); no source maps shipped.
      assetsInlineLimit: 0,
      sourcemap: false,
      chunkSizeWarningLimit: 1000,
    },
  };
}
