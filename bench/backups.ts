/**
 * Backups (issue 30) on the real engine and restic: a PostgreSQL app (local/postgres:15 with its data in a named
 * volume, and a web service answering rows read from it) is deployed through the API, its database filled to
 * GIGABYTES (1 by default; `--gigabytes 0.1` for a quick run) with `INSERT … SELECT generate_series`, then
 * 1. Back Up Now while a client asks the web service for a random row every 100 ms: failed requests, and the time
 *    until the backup is stored (it turns Verifying) ÷ a bare `docker exec pg_dumpall | restic backup --stdin`
 *    into a fresh repository on the same machine, with the same requests going on (the faster of one before
 *    and one after);
 * 2. 1 % of the rows changed (the newest 1 %, a hot set; then 1 % scattered, every 100th row): what each next
 *    backup added to the repository ÷ what the first one added (restic's data_added);
 * 3. a restore of the newest backup — the backup read in full and loaded into a staging cluster and checked, a
 *    safety backup stored in a repository of its own and verified by reading it back, both before anything live
 *    is touched; then the service stopped, the checked data swapped in, started and health checked — ÷ a bare
 *    `restic dump | docker exec -i psql` after emptying the cluster (which reads nothing first, keeps no copy of
 *    the data it drops, and checks nothing). Also: how long the service was stopped.
 * Run: `npx tsx bench/backups.ts [--gigabytes 0.1]` (Docker Engine, restic, local/postgres:15 and busybox:1.36).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Backup, Restore, RestoreStatus, WorkspaceDetails } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { workspaces } from '../apps/server/src/infra/db/schema.js';
import { composeProjectName, LABELS } from '../apps/server/src/infra/docker/conventions.js';
import { deployAndWait, docker, loopback } from '../apps/server/src/test/deployments.js';
import { git } from '../apps/server/src/test/fixtures/fixtureRepos.js';
import { TestClient } from '../apps/server/src/test/testClient.js';
import { startEmbeddedApp } from './embeddedPlatform.js';
import { bareRepository } from './lib/bareRestic.js';
import { failedCount, startRequestLoop } from './lib/requestLoop.js';
import { mb, printResult } from './lib/result.js';

const { values: options } = parseArgs({ options: { gigabytes: { type: 'string', default: '1' } } });
const GIGABYTES = Number(options.gigabytes);
if (!(GIGABYTES > 0)) throw new Error('--gigabytes takes a positive number, e.g. 0.1');
/** Bytes a row of `items` takes in its heap (id, 192 characters of md5 hex, tuple header and line pointer). */
const ROW_BYTES = 234;
const ROWS = Math.round((GIGABYTES * 1024 ** 3) / ROW_BYTES);
const REPO = 'bk-ledger';
/** 192 characters of md5 hex made from `expression` (a row's name: random-looking, as little compressible as data is). */
const nameFrom = (expression: string) =>
  Array.from({ length: 6 }, (_, i) => `md5((${expression} + ${i})::text)`).join(' || ');

/** The image's own start, letting web in (initdb --auth=trust trusts only local connections); $$ is $ to Compose. */
const DB_COMMAND =
  '[ -s "$$PGDATA/PG_VERSION" ] || { initdb -D "$$PGDATA" --auth=trust -U postgres >/dev/null && echo "host all all all trust" >> "$$PGDATA/pg_hba.conf"; }; exec postgres -D "$$PGDATA" -c listen_addresses="*"';

/** db: the database; web: busybox httpd on the PostgreSQL client's libraries, /cgi-bin/item?{id} reads a row. */
const APP = {
  'compose.yaml': `services:
  db:
    image: local/postgres:15
    command: ["sh", "-c", ${JSON.stringify(DB_COMMAND)}]
    volumes: ["pgdata:/var/lib/postgresql/data"]
  web:
    build: .
    ports: ["8080"]
    depends_on: [db]
volumes:
  pgdata:
`,
  Dockerfile: `FROM local/debian:bookworm
COPY --from=local/postgres:15 /usr/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu
COPY --from=local/postgres:15 /usr/lib/postgresql/15/bin/psql /usr/local/bin/psql
COPY --from=busybox:1.36 /bin/busybox /bin/busybox
COPY item /www/cgi-bin/item
RUN chmod +x /www/cgi-bin/item
EXPOSE 8080
CMD ["/bin/busybox", "httpd", "-f", "-p", "8080", "-h", "/www"]
`,
  item: `#!/bin/sh
id="$QUERY_STRING"
case "$id" in ''|*[!0-9]*) id=1 ;; esac
printf 'Content-Type: text/plain\\r\\n\\r\\n'
/usr/local/bin/psql -h db -U postgres -tA -c "SELECT name FROM items WHERE id = $id" 2>&1
`,
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const percent = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;

/** Checks every 250 ms (the backup's and restore's states are read through the API, in this process). */
async function until<T>(what: string, check: () => Promise<T | undefined | false>, withinMs = 3_600_000) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const root = mkdtempSync(path.join(tmpdir(), 'slipway-bk-repos-'));
const appDir = path.join(root, 'operator', REPO);
mkdirSync(appDir, { recursive: true });
for (const [file, text] of Object.entries(APP)) writeFileSync(path.join(appDir, file), text);
git(appDir, ['init', '-q', '-b', 'main']);
git(appDir, ['add', '-A']);
git(appDir, ['commit', '-q', '-m', 'ledger']);

const ctx = await startEmbeddedApp({ LOCAL_REPOS_DIR: root });
const bares: Awaited<ReturnType<typeof bareRepository>>[] = [];
try {
  await ctx.platform.runs.startWorkers();
  const client = await new TestClient(ctx.app).signIn('operator');
  const deployed = await deployAndWait(client, { repo: REPO }, 600_000);
  if (deployed.status.error) throw new Error(`deploying ${REPO} failed: ${deployed.status.error}`);
  const details = (await client.get(`/api/workspace-details/${REPO}`)).json() as WorkspaceDetails;
  const webUrl = details.service_urls.web ?? '';
  const [row] = await ctx.platform.db.select().from(workspaces).where(eq(workspaces.name, REPO));
  const [dbContainer] = await docker.listContainers({
    filters: {
      label: [`${LABELS.composeProject}=${composeProjectName(row!.id)}`, `${LABELS.composeService}=db`],
    },
  });
  if (!webUrl || !dbContainer) throw new Error(`no web URL (${webUrl}) or db container after the deployment`);
  const db = dbContainer.Id;
  const sql = (query: string) =>
    execFileSync(
      'docker',
      ['exec', db, 'psql', '-X', '-U', 'postgres', '-tA', '-v', 'ON_ERROR_STOP=1', '-c', query],
      {
        encoding: 'utf8',
        maxBuffer: 1024 ** 2,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ).trim();

  const api = {
    backUpNow: async () => {
      const answer = await client.post(`/api/workspace-backups/${REPO}`);
      if (answer.statusCode !== 202) throw new Error(`Back Up Now: ${answer.statusCode} ${answer.body}`);
      return answer.json() as Backup;
    },
    backup: async (id: string) => (await client.get(`/api/workspace-backups/${REPO}/${id}`)).json() as Backup,
    restore: async (id: string) =>
      (await client.get(`/api/workspace-restores/${REPO}/${id}`)).json() as Restore,
  };
  /** Back Up Now, followed every 250 ms: when it was stored (turned Verifying) and when it ended. */
  async function backUp() {
    const started = performance.now();
    const { id } = await api.backUpNow();
    let storedMs = Number.NaN;
    const done = await until(`backup ${id}`, async () => {
      const backup = await api.backup(id);
      if (backup.status !== 'running' && Number.isNaN(storedMs)) storedMs = performance.now() - started;
      return backup.status === 'verified' || backup.status === 'failed' ? backup : undefined;
    });
    if (done.status !== 'verified') throw new Error(`backup ${id} failed: ${done.cause}`);
    return { backup: done, storedMs, totalMs: performance.now() - started };
  }

  // db runs once deployed (it declares no healthcheck) but may not accept connections yet.
  await until('db accepting connections', async () => {
    try {
      return sql('SELECT 1') === '1';
    } catch {
      return false;
    }
  });
  // The repository is made by a first backup of the empty database, so the timed one below only adds to it.
  sql('CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL)');
  await backUp();
  const filling = performance.now();
  sql(`INSERT INTO items SELECT g, ${nameFrom('g')} FROM generate_series(1, ${ROWS}) AS g`);
  sql('VACUUM ANALYZE items');
  const databaseBytes = Number(sql("SELECT pg_database_size('postgres')"));
  console.log(
    `${ROWS} rows, database ${mb(databaseBytes)}, filled in ${seconds(performance.now() - filling)}`,
  );

  // 1. Slipway's backup while the app serves, between two bare ones made while it serves the same way (each
  // request runs psql in the web container: the bare runs share the machine with that work too).
  const serving = () =>
    startRequestLoop(async () => {
      const id = 1 + Math.floor(Math.random() * ROWS);
      const response = await fetch(loopback(`${webUrl.replace(/\/$/, '')}/cgi-bin/item?${id}`));
      const body = await response.text();
      // The CGI answers 200 whatever psql says: a row that is not one is a failure too.
      return { status: response.ok && /^[0-9a-f]{192}$/.test(body.trim()) ? 200 : 502, body: '' };
    });
  const bareWhileServing = async () => {
    const bare = await bareRepository();
    bares.push(bare);
    const loop = serving();
    const result = await bare.backUp(db);
    await loop.stop();
    return result;
  };
  const bareBefore = await bareWhileServing();
  const loop = serving();
  const full = await backUp();
  const tally = await loop.stop();
  const bareAfter = await bareWhileServing();
  const bareMs = Math.min(bareBefore.ms, bareAfter.ms);
  console.log(
    `Slipway: stored in ${seconds(full.storedMs)}, verified after ${seconds(full.totalMs)}; ${mb(full.backup.size_bytes)} dumped, ${mb(full.backup.added_bytes)} added; bare pg_dumpall | restic: ${seconds(bareBefore.ms)} before, ${seconds(bareAfter.ms)} after (${mb(bareBefore.dumpBytes)} dumped, ${mb(bareBefore.addedBytes)} added)`,
  );
  console.log(
    `requests during the backup: ${tally.sent} sent, ${tally.ok} answered with a row, slowest ${tally.slowestMs.toFixed(0)} ms, failed ${JSON.stringify(tally.failed)}`,
  );

  // 2. Incremental backups after 1 % of the rows changed.
  const changed = Math.round(ROWS / 100);
  sql(`UPDATE items SET name = ${nameFrom('-id')} WHERE id > ${ROWS - changed}`);
  const hot = await backUp();
  sql(`UPDATE items SET name = ${nameFrom('id * 7')} WHERE id % 100 = 50`);
  const scattered = await backUp();
  // The same change backed up by hand into the bare repository: what restic's chunking itself makes of it.
  const bareScattered = await bares[0]!.backUp(db);
  console.log(
    `after 1 % changed: the newest 1 % → ${mb(hot.backup.added_bytes)} added; every 100th row → ${mb(scattered.backup.added_bytes)} added (bare pg_dumpall | restic: ${mb(bareScattered.addedBytes)}); the first added ${mb(full.backup.added_bytes)}`,
  );

  // 3. Restore of the newest backup (retention keeps the newest of each day: the earlier ones of today are gone),
  // then the bare restore of the same amount of data.
  const restoreStarted = performance.now();
  const started = await client.post(`/api/workspace-backups/${REPO}/${scattered.backup.id}/restore`, {});
  if (started.statusCode !== 202) throw new Error(`restore: ${started.statusCode} ${started.body}`);
  const { id: restoreId } = started.json() as Restore;
  const reached: Partial<Record<RestoreStatus, number>> = {};
  const restored = await until('the restore', async () => {
    const restore = await api.restore(restoreId);
    reached[restore.status] ??= performance.now() - restoreStarted;
    return ['done', 'failed', 'rolled_back'].includes(restore.status) ? restore : undefined;
  });
  const restoreMs = performance.now() - restoreStarted;
  if (restored.status !== 'done') throw new Error(`the restore ended ${restored.status}: ${restored.cause}`);
  if (Number(sql('SELECT count(*) FROM items')) !== ROWS)
    throw new Error('the restore did not bring every row back');
  // The service is down from the stop to its start: the swap itself renames directories.
  const downMs = (reached.verifying ?? restoreMs) - (reached.stopping ?? 0);
  const phases = Object.entries(reached)
    .map(([status, at]) => `${status} at ${seconds(at)}`)
    .join(', ');
  const bareRestoreMs = await bares[0]!.restore(db);
  if (Number(sql('SELECT count(*) FROM items')) !== ROWS)
    throw new Error('the bare restore did not bring every row back');
  console.log(
    `Slipway's restore: ${seconds(restoreMs)} (${phases}); bare restic dump | psql: ${seconds(bareRestoreMs)}`,
  );

  const size = `${GIGABYTES} GB table, ${mb(databaseBytes)} database`;
  printResult(`failed requests during a backup (${size})`, `${failedCount(tally)} of ${tally.sent}`, '0');
  printResult(
    'backup until stored ÷ bare pg_dumpall | restic backup --stdin',
    `${ratio(full.storedMs, bareMs)} (${seconds(full.storedMs)} ÷ ${seconds(bareMs)}; verified after ${seconds(full.totalMs)})`,
    '≤ 1.2×',
  );
  printResult(
    'restore (full read, verified safety backup, swap, health) ÷ bare restic dump | psql',
    `${ratio(restoreMs, bareRestoreMs)} (${seconds(restoreMs)} ÷ ${seconds(bareRestoreMs)})`,
    '≤ 1.5×',
  );
  printResult('restore: the database stopped, from its stop to its start', seconds(downMs), '—');
  printResult(
    'incremental after the newest 1 % of rows changed ÷ first backup (data added)',
    `${percent(hot.backup.added_bytes, full.backup.added_bytes)} (${mb(hot.backup.added_bytes)} ÷ ${mb(full.backup.added_bytes)})`,
    '< 5 %',
  );
  printResult(
    'incremental after every 100th row changed ÷ first backup (data added)',
    `${percent(scattered.backup.added_bytes, full.backup.added_bytes)} (${mb(scattered.backup.added_bytes)} ÷ ${mb(full.backup.added_bytes)}; bare: ${percent(bareScattered.addedBytes, bareBefore.addedBytes)})`,
    '< 5 %',
  );
} finally {
  for (const bare of bares) bare.close();
  await ctx.platform.backups.idle();
  const client = await new TestClient(ctx.app).signIn('operator');
  await client.delete(`/api/workspace-delete/${REPO}`).catch(() => {});
  await ctx.close();
  rmSync(root, { recursive: true, force: true });
}
