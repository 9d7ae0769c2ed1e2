import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// Served by the service at /desk/ (packages/server/src/http/plugins/web-apps.ts), same origin, no CDN.
export default defineConfig({
  base: '/desk/',
  plugins: [react()],
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
});
