// `npm pack` / `npm publish` (prepack): one ES module with the contract inlined — @slipway/contract is a private
// workspace package — and the CLI's own dependencies left as imports.
import { build } from 'esbuild';

await build({
  absWorkingDir: import.meta.dirname,
  entryPoints: ['src/main.ts'],
  outfile: 'dist/slipway.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  external: ['commander', 'dotenv', 'zod'],
  logLevel: 'info',
});
