import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  // The manifest lets bench/web-bundle.ts follow each screen's chunks and their imports.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
});
