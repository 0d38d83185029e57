import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.js';

const packageDir = (name: string) =>
  path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));

/**
 * React Router 7's package exports point every condition at its development build (dev warnings and their
 * messages included; remix-run/react-router#14102). The production build ships beside it in the same
 * package: `vite build` uses that one; the dev server keeps the warnings.
 */
const reactRouterProduction = path.join(packageDir('react-router'), 'dist/production/index.mjs');

/**
 * The lucide icon files the landing page imports. Left to Rollup, each icon another screen also uses
 * becomes a chunk of its own (a dozen requests and ~1.5 kB more gzip before the landing shows); these
 * travel in one chunk instead. Names are read from the landing's imports and resolved through lucide's
 * own export list (`Building2` is in icons/building-2.js).
 */
function landingIconFiles(): Set<string> {
  const landingDir = fileURLToPath(new URL('src/features/landing', import.meta.url));
  const names = new Set<string>();
  for (const file of readdirSync(landingDir)) {
    const source = readFileSync(path.join(landingDir, file), 'utf8');
    for (const [, list] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'lucide-react'/g)) {
      for (const name of list?.split(',') ?? []) if (name.trim()) names.add(name.trim());
    }
  }
  const barrel = readFileSync(path.join(packageDir('lucide-react'), 'dist/esm/lucide-react.js'), 'utf8');
  const files = new Set<string>();
  const found = new Set<string>();
  for (const [, exported, file] of barrel.matchAll(/export \{([^}]*)\} from '\.\/icons\/([^']+)'/g)) {
    for (const alias of exported?.split(',').map((entry) =>
      entry
        .trim()
        .split(/\s+as\s+/)
        .pop(),
    ) ?? []) {
      if (file && alias && names.has(alias)) {
        files.add(`/lucide-react/dist/esm/icons/${file}`);
        found.add(alias);
      }
    }
  }
  const missing = [...names].filter((name) => !found.has(name));
  if (missing.length > 0) throw new Error(`lucide-react exports no icon named ${missing.join(', ')}`);
  return files;
}
const LANDING_ICONS = [...landingIconFiles()];
const REACT = /\/node_modules\/(react|react-dom|scheduler)\//;

/**
 * Two chunks named by hand: React itself (the same across Slipway releases, so a browser keeps it cached
 * through an upgrade), and the landing's icons with lucide's icon base (every screen's icons build on it).
 */
function manualChunks(id: string): string | undefined {
  if (REACT.test(id)) return 'react';
  if (LANDING_ICONS.some((file) => id.endsWith(file))) return 'landing-icons';
  return undefined;
}

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss(), precompress()],
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
    rollupOptions: { output: { manualChunks } },
  },
}));
