/**
 * Writes packages/contract/src/routeEndpoints.ts, the route table's methods and paths without its schemas
 * (what the browser imports: ROUTES would ship zod and every schema). `npm run routes` rewrites it;
 * `npm run check` runs this with --check and fails when the file is not what the table gives.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTES } from '../packages/contract/src/routes.js';

const root = path.resolve(import.meta.dirname, '..');
const target = path.join(root, 'packages/contract/src/routeEndpoints.ts');

const names = Object.keys(ROUTES) as (keyof typeof ROUTES)[];
const constants = names.map((name) => {
  const { method, path: routePath } = ROUTES[name];
  return `export const ${name}Endpoint = { method: ${JSON.stringify(method)}, path: ${JSON.stringify(routePath)} } as const;`;
});

const source = `// Generated from the route table (routes.ts) by scripts/routeEndpoints.ts: run \`npm run routes\`, do not edit.
import type { RouteName, Routes } from './routes.js';

/** A route's method and path: what a browser needs to call it. */
export type RouteEndpoint<N extends RouteName> = {
  readonly method: Routes[N]['method'];
  readonly path: Routes[N]['path'];
};

/** One constant per route, so a script that needs one path (the landing's session check) carries only it. */
${constants.join('\n')}

/**
 * Every route of ROUTES by name, its method and path only: ROUTES carries the zod schemas (the server
 * validates with them), which a browser importing it would download. Only types come from routes.ts, so
 * the bundle holds none of it; the \`satisfies\` fails \`tsc\` too when this copy falls behind the table.
 */
export const ROUTE_ENDPOINTS = {
${names.map((name) => `  ${name}: ${name}Endpoint,`).join('\n')}
} as const satisfies { readonly [N in RouteName]: RouteEndpoint<N> };
`;

// Formatted as biome formats the repository, so the check compares like with like.
const formatted = execFileSync(
  path.join(root, 'node_modules/.bin/biome'),
  ['format', `--stdin-file-path=${target}`],
  { input: source, encoding: 'utf8' },
);

if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== formatted) {
    console.error(`${path.relative(root, target)} is stale: run \`npm run routes\` and commit the result`);
    process.exit(1);
  }
  console.log('route endpoints: routeEndpoints.ts matches the route table');
} else {
  writeFileSync(target, formatted);
}
