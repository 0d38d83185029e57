import { createRequire } from 'node:module';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * React Router 7's package exports point every condition at its development build (dev warnings and their
 * messages included; remix-run/react-router#14102). The production build ships beside it in the same
 * package: `vite build` uses that one; the dev server keeps the warnings.
 */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  // The manifest lets bench/web-bundle.ts follow each screen's chunks and their imports.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    // Browsers without <link rel="modulepreload"> (Safari 16, Firefox before 115) fetch the same modules
    // a moment later, unhinted; the polyfill would cost every visitor its bytes in the first script.
    modulePreload: { polyfill: false },
  },
}));
