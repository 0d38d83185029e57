/**
 * Writes the contract's route table without its schemas, for the browser (ROUTES would ship zod and every
 * schema): routeEndpoints.ts, every route's method and path, and shellEndpoints.ts, the few routes the web
 * app's first script needs, in a module of their own so that script does not carry the whole list (a module
 * is never split between chunks). `npm run routes` rewrites both; `npm run check` runs this with --check and
 * fails when a committed file is not what the table gives.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTES } from '../packages/contract/src/routes.js';

type Name = keyof typeof ROUTES;

/** The routes the web app's first script calls: the session check and the sign-in links. */
const SHELL_ROUTES: Name[] = ['currentUser', 'signIn', 'signInWithInstall'];

const root = path.resolve(import.meta.dirname, '..');
const contract = path.join(root, 'packages/contract/src');
const HEADER = `// Generated from the route table (routes.ts) by scripts/routeEndpoints.ts: run \`npm run routes\`, do not edit.`;

const endpoint = (name: Name) => {
  const { method, path: routePath } = ROUTES[name];
  return `{ method: ${JSON.stringify(method)}, path: ${JSON.stringify(routePath)} }`;
};

const files: Record<string, string> = {
  'routeEndpoints.ts': `${HEADER}
import type { RouteName, Routes } from './routes.js';

/** A route's method and path: what a browser needs to call it. */
export type RouteEndpoint<N extends RouteName> = {
  readonly method: Routes[N]['method'];
  readonly path: Routes[N]['path'];
};

/**
 * Every route of ROUTES by name, its method and path only: ROUTES carries the zod schemas (the server
 * validates with them), which a browser importing it would download. Only types come from routes.ts; the
 * \`satisfies\` fails \`tsc\` too when this copy falls behind the table.
 */
export const ROUTE_ENDPOINTS = {
${(Object.keys(ROUTES) as Name[]).map((name) => `  ${name}: ${endpoint(name)},`).join('\n')}
} as const satisfies { readonly [N in RouteName]: RouteEndpoint<N> };
`,
  'shellEndpoints.ts': `${HEADER}
import type { RouteEndpoint } from './routeEndpoints.js';

// The routes the web app's first script calls, apart from ROUTE_ENDPOINTS so it carries only these.
${SHELL_ROUTES.map((name) => `export const ${name}Endpoint = ${endpoint(name)} as const satisfies RouteEndpoint<'${name}'>;`).join('\n')}
`,
};

const stale: string[] = [];
for (const [file, source] of Object.entries(files)) {
  const target = path.join(contract, file);
  // Formatted as biome formats the repository, so the check compares like with like.
  const formatted = execFileSync(
    path.join(root, 'node_modules/.bin/biome'),
    ['format', `--stdin-file-path=${target}`],
    { input: source, encoding: 'utf8' },
  );
  if (!process.argv.includes('--check')) writeFileSync(target, formatted);
  else if (readFileSync(target, 'utf8') !== formatted) stale.push(path.relative(root, target));
}
if (stale.length > 0) {
  console.error(`${stale.join(', ')}: stale, run \`npm run routes\` and commit the result`);
  process.exit(1);
}
if (process.argv.includes('--check'))
  console.log('route endpoints: the generated files match the route table');
