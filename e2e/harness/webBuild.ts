import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './server.js';

/** The server serves apps/web/dist; without a build every page would be a 404. */
export function assertWebBuilt() {
  const index = path.join(REPO_ROOT, 'apps/web/dist/index.html');
  if (!existsSync(index)) {
    throw new Error('apps/web/dist is missing: run `npm run build -w @slipway/web` before the e2e tests');
  }
}
