import { defineConfig } from 'vite';
import { webAppConfig } from '../../scripts/web-app-vite.ts';

export default defineConfig(webAppConfig({ name: 'portal', title: 'Cambio portal', icon: 'favicon.svg' }));
