#!/usr/bin/env node
// The `slipway` command. In a clone of Slipway the TypeScript sources run as they are, through tsx (no build
// step, so `npx slipway` works right after `npm install`); a published package has no src/ and runs the bundle
// `npm pack` built (build.mjs).
import { existsSync } from 'node:fs';

const sources = new URL('../src/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import(new URL('../dist/slipway.js', import.meta.url).href);
}
