import { defineConfig } from 'vite';
import { webAppConfig } from '../../scripts/web-app-vite.ts';

export default defineConfig(webAppConfig({ name: 'desk', title: 'Cambio desk', icon: 'favicon.svg' }));
