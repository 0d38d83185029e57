import type Docker from 'dockerode';
import { byLine, execStream, execText } from '../../infra/docker/containerExec.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import type { PartResult, ServiceData, Verification } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import type { PartMethod } from './partMethod.js';
import {
  compareTables,
  dataVolume,
  pathInVolume,
  refuseOtherMajorVersion,
  stageInThrowawayServer,
  withThrowawayServer,
} from './partMethod.js';
import { PostgresDumpCounter, tableKey } from './postgresDumpCounter.js';
import { existingRolesTolerated } from './postgresRoles.js';
import { backUpOutput, producerError, restoreInto, waitUntil } from './streamedPart.js';
import { swapUnit } from './volumeSwap.js';

/** The server's own configuration in its data directory: kept from the live data across a restore. */
const CONFIG_FILES = ['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf', 'postgresql.auto.conf'];

const superuser = (data: ServiceData) =>
  data.credentials.POSTGRES_USER || data.credentials.PGUSER || 'postgres';

/** The password reaches psql through its environment (PGPASSWORD), never its arguments. */
function pgEnv(data: ServiceData): string[] {
  const password = data.credentials.POSTGRES_PASSWORD || data.credentials.PGPASSWORD;
  return password ? [`PGPASSWORD=${password}`] : [];
}

function psqlArgs(data: ServiceData, database: string, extra: string[] = []): string[] {
  return ['psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-U', superuser(data), '-d', database, ...extra];
}

/** A query's fields in order, read with NUL bytes between fields and records (names may hold tabs and newlines). */
async function query(docker: Docker, containerId: string, data: ServiceData, database: string, sql: string) {
  const out = await execText(
    docker,
    containerId,
    psqlArgs(data, database, ['-A', '-t', '-z', '-0', '-c', sql]),
    {
      env: pgEnv(data),
    },
  );
  const fields = out.replace(/\n$/, '').split('\0');
  if (fields.at(-1) === '') fields.pop();
  return fields;
}

export async function serverVersion(docker: Docker, containerId: string, data: ServiceData): Promise<string> {
  const [version] = await query(docker, containerId, data, 'template1', 'SHOW server_version');
  if (!version) throw new BackupError(`${data.service}: PostgreSQL did not say its version`);
  return version.trim();
}

const COUNT_TABLES = `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname),
  (xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c FROM %I.%I', n.nspname, c.relname), false, true, '')))[1]::text
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'`;

/** Exact row counts of every user table in every database of a server, keyed as the dump counter keys them. */
export async function countRows(
  docker: Docker,
  containerId: string,
  data: ServiceData,
): Promise<Record<string, number>> {
  const databases = await query(
    docker,
    containerId,
    data,
    'template1',
    'SELECT datname FROM pg_database WHERE datallowconn',
  );
  const tables: Record<string, number> = {};
  for (const database of databases) {
    // -z -0: name NUL count NUL name NUL count …
    const flat = await query(docker, containerId, data, database, COUNT_TABLES);
    for (let i = 0; i + 1 < flat.length; i += 2) tables[tableKey(database, flat[i]!)] = Number(flat[i + 1]);
  }
  return tables;
}

/** psql's errors while loading, but the ones a dump of a whole cluster always gives (its roles exist). */
function loadErrors(): { onStderr: (text: string) => void; errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    onStderr: byLine((line) => {
      if (!/ERROR:/.test(line) || /role ".*" already exists|database ".*" already exists/.test(line)) return;
      if (errors.length < 5) errors.push(line.replace(/^psql:[^:]*:\d+:\s*/, '').trim());
    }),
  };
}

async function loadDump(
  docker: Docker,
  repo: ResticRepository,
  containerId: string,
  data: ServiceData,
  part: PartResult,
): Promise<void> {
  const { errors, onStderr } = loadErrors();
  // Without ON_ERROR_STOP: errors are counted below (the roles that exist are created only when missing).
  const load = ['psql', '-X', '-q', '-U', superuser(data), '-d', 'template1', '-f', '-'];
  await restoreInto(
    repo,
    part.snapshotId,
    dumpFile(part.service),
    (input) =>
      execStream(docker, containerId, load, {
        env: pgEnv(data),
        stdin: input.pipe(existingRolesTolerated()),
        onStderr,
      }),
    `Loading the dump of ${part.service}`,
    part.sha256,
  );
  if (errors.length) throw new BackupError(`The dump of ${part.service} did not load cleanly: ${errors[0]}`);
}

const dumpFile = (service: string) => `${service}.sql`;

async function waitForServer(
  docker: Docker,
  containerId: string,
  data: ServiceData,
  what = 'The throwaway PostgreSQL',
): Promise<void> {
  // Over TCP: the official image's entrypoint first runs a server on its socket only, for its init scripts.
  const ping = psqlArgs(data, 'template1', ['-h', '127.0.0.1', '-c', 'SELECT 1']);
  await waitUntil(
    () => execText(docker, containerId, ping, { env: pgEnv(data) }).then(() => true),
    async () => {
      const state = (await docker.getContainer(containerId).inspect()).State;
      if (!state.Running) throw new BackupError(`${what} stopped (exit ${state.ExitCode})`);
    },
    what,
  );
}

const credentialsEnv = (data: ServiceData) =>
  Object.entries(data.credentials).map(([key, value]) => `${key}=${value}`);

export const postgresParts: PartMethod = {
  file: dumpFile,

  async backUp({ docker }, repo, data, tags) {
    const version = await serverVersion(docker, data.containerId, data).catch((error: unknown) => {
      throw producerError(`The dump of ${data.service}`, error);
    });
    const counter = new PostgresDumpCounter();
    const dump = await execStream(docker, data.containerId, ['pg_dumpall', '-U', superuser(data)], {
      env: pgEnv(data),
    });
    const stored = await backUpOutput(
      repo,
      dump,
      [counter],
      `The dump of ${data.service}`,
      dumpFile(data.service),
      tags,
    );
    return {
      service: data.service,
      method: 'postgres',
      volumes: data.volumes.map((volume) => volume.volume),
      ...stored,
      fingerprint: { kind: 'tables', serverVersion: version, tables: counter.tables },
    };
  },

  async verify(context, repo, data, part): Promise<Verification> {
    const { docker } = context;
    return withThrowawayServer(
      context,
      data,
      dataVolume(data, data.credentials.PGDATA),
      credentialsEnv(data),
      async (containerId) => {
        await waitForServer(docker, containerId, data);
        await loadDump(docker, repo, containerId, data, part);
        return compareTables(part, await countRows(docker, containerId, data));
      },
    );
  },

  /**
   * pg_dumpall's dump loaded into a new cluster of the service's own image (its whole data directory, so the
   * swap replaces the cluster at once): no database of the live server is emptied or dropped before the new one
   * has loaded and checked out. The live data's configuration files are kept.
   */
  async stage(context, repo, data, part, restoreId) {
    const { docker } = context;
    const volume = dataVolume(data, data.credentials.PGDATA);
    const { scratch, checked } = await stageInThrowawayServer(
      context,
      data,
      volume,
      credentialsEnv(data),
      async (containerId) => {
        await waitForServer(docker, containerId, data);
        refuseOtherMajorVersion(
          'postgres',
          part,
          await serverVersion(docker, containerId, data),
          (major) => `PostgreSQL ${major}`,
        );
        await loadDump(docker, repo, containerId, data, part);
        return compareTables(part, await countRows(docker, containerId, data));
      },
      restoreId,
    );
    const inVolume = pathInVolume(volume, data.credentials.PGDATA);
    const unit = await swapUnit(context, restoreId, {
      live: volume.dockerVolume,
      livePath: inVolume,
      staging: scratch,
      stagingPath: inVolume,
      keep: CONFIG_FILES,
    });
    return { service: part.service, checked, units: [unit] };
  },

  async checkLive({ docker }, data, part) {
    await waitForServer(docker, data.containerId, data, data.service);
    return compareTables(part, await countRows(docker, data.containerId, data));
  },
};
