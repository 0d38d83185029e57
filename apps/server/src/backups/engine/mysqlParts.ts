import type Docker from 'dockerode';
import { type ExecOptions, execStream, execText } from '../../infra/docker/containerExec.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import type { PartResult, ServiceData, Verification } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import { MysqlDumpCounter, SYSTEM_SCHEMAS } from './mysqlDumpCounter.js';
import type { PartMethod } from './partMethod.js';
import {
  compareTables,
  dataVolume,
  pathInVolume,
  refuseOtherMajorVersion,
  stageInThrowawayServer,
  withThrowawayServer,
} from './partMethod.js';
import { backUpOutput, producerError, restoreInto, waitUntil } from './streamedPart.js';
import { swapUnit } from './volumeSwap.js';

const DATA_DIR = '/var/lib/mysql';

const dumpFile = (service: string) => `${service}.sql`;

/**
 * Run as the container's root: the root password reaches the client through MYSQL_PWD, never its arguments,
 * and a server without one (Debian's MariaDB) lets the system's root in by its socket.
 */
function clientOptions(data: ServiceData, extra: Partial<ExecOptions> = {}): ExecOptions {
  const password = data.credentials.MARIADB_ROOT_PASSWORD || data.credentials.MYSQL_ROOT_PASSWORD;
  return { user: '0', env: password ? [`MYSQL_PWD=${password}`] : [], ...extra };
}

/** MariaDB's own names for its tools, else MySQL's. */
async function tools(docker: Docker, containerId: string): Promise<{ client: string; dump: string }> {
  const mariadb = await execText(docker, containerId, ['mariadb-dump', '--version'], { user: '0' }).then(
    () => true,
    () => false,
  );
  return mariadb ? { client: 'mariadb', dump: 'mariadb-dump' } : { client: 'mysql', dump: 'mysqldump' };
}

async function sql(
  docker: Docker,
  containerId: string,
  data: ServiceData,
  statement: string,
): Promise<string[][]> {
  const { client } = await tools(docker, containerId);
  const out = await execText(
    docker,
    containerId,
    [client, '-u', 'root', '-N', '-B', '-e', statement],
    clientOptions(data),
  );
  const unescapeField = (field: string) =>
    field.replace(/\\([nt0\\])/g, (_, c: string) => ({ n: '\n', t: '\t', '0': '\0', '\\': '\\' })[c] ?? c);
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t').map(unescapeField));
}

async function serverVersion(docker: Docker, containerId: string, data: ServiceData): Promise<string> {
  const version = (await sql(docker, containerId, data, 'SELECT VERSION()'))[0]?.[0];
  if (!version) throw new BackupError(`${data.service}: the database did not say its version`);
  return version;
}

const userSchemas = `table_schema NOT IN (${SYSTEM_SCHEMAS.map((name) => `'${name}'`).join(', ')})`;
const COUNT_QUERIES = `SET SESSION group_concat_max_len = 16777216;
SELECT GROUP_CONCAT(CONCAT('SELECT ', QUOTE(table_schema), ', ', QUOTE(table_name), ', COUNT(*) FROM \`',
  REPLACE(table_schema, '\`', '\`\`'), '\`.\`', REPLACE(table_name, '\`', '\`\`'), '\`') SEPARATOR ' UNION ALL ')
FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND ${userSchemas}`;

/** Exact row counts of every user table, keyed `{database}/{table}` as the dump counter keys them. */
async function countRows(
  docker: Docker,
  containerId: string,
  data: ServiceData,
): Promise<Record<string, number>> {
  const query = (await sql(docker, containerId, data, COUNT_QUERIES))[0]?.[0];
  const tables: Record<string, number> = {};
  if (!query || query === 'NULL') return tables;
  for (const [database, table, rows] of await sql(docker, containerId, data, query)) {
    tables[`${database}/${table}`] = Number(rows);
  }
  return tables;
}

async function loadDump(
  docker: Docker,
  repo: ResticRepository,
  containerId: string,
  data: ServiceData,
  part: PartResult,
): Promise<void> {
  const { client } = await tools(docker, containerId);
  await restoreInto(
    repo,
    part.snapshotId,
    dumpFile(part.service),
    (input) => execStream(docker, containerId, [client, '-u', 'root'], clientOptions(data, { stdin: input })),
    `Loading the dump of ${part.service}`,
    part.sha256,
  );
}

/** Waits for the server to take connections over the network (the official images first start without it). */
async function waitForServer(docker: Docker, containerId: string, data: ServiceData, what: string) {
  await waitUntil(
    async () => (await sql(docker, containerId, data, 'SELECT @@skip_networking'))[0]?.[0] === '0',
    async () => {
      const state = (await docker.getContainer(containerId).inspect()).State;
      if (!state.Running) throw new BackupError(`${what} stopped (exit ${state.ExitCode})`);
    },
    what,
  );
}

const credentialsEnv = (data: ServiceData) =>
  Object.entries(data.credentials).map(([key, value]) => `${key}=${value}`);

/** The dump loaded into the throwaway server (taking connections), and its rows counted. */
async function loadAndCount(
  docker: Docker,
  repo: ResticRepository,
  containerId: string,
  data: ServiceData,
  part: PartResult,
): Promise<Verification> {
  await loadDump(docker, repo, containerId, data, part);
  return compareTables(part, await countRows(docker, containerId, data));
}

export const mysqlParts: PartMethod = {
  file: dumpFile,

  async backUp({ docker }, repo, data, tags) {
    const version = await serverVersion(docker, data.containerId, data).catch((error: unknown) => {
      throw producerError(`The dump of ${data.service}`, error);
    });
    const { dump } = await tools(docker, data.containerId);
    const counter = new MysqlDumpCounter();
    const args = [
      dump,
      '-u',
      'root',
      '--single-transaction',
      '--all-databases',
      '--routines',
      '--events',
      '--triggers',
      '--flush-privileges',
    ];
    const dumping = await execStream(docker, data.containerId, args, clientOptions(data));
    const stored = await backUpOutput(
      repo,
      dumping,
      [counter],
      `The dump of ${data.service}`,
      dumpFile(data.service),
      tags,
    );
    return {
      service: data.service,
      method: 'mysql',
      volumes: data.volumes.map((volume) => volume.volume),
      ...stored,
      fingerprint: { kind: 'tables', serverVersion: version, tables: counter.tables },
    };
  },

  async verify(context, repo, data, part) {
    return withThrowawayServer(
      context,
      data,
      dataVolume(data, DATA_DIR),
      credentialsEnv(data),
      async (id) => {
        await waitForServer(context.docker, id, data, 'The throwaway database');
        return loadAndCount(context.docker, repo, id, data, part);
      },
    );
  },

  /** The dump loaded into a new data directory of the service's own image; the swap replaces the live one. */
  async stage(context, repo, data, part, restoreId) {
    const { docker } = context;
    const volume = dataVolume(data, DATA_DIR);
    const { scratch, checked } = await stageInThrowawayServer(
      context,
      data,
      volume,
      credentialsEnv(data),
      async (containerId) => {
        await waitForServer(docker, containerId, data, 'The throwaway database');
        refuseOtherMajorVersion(
          'mysql',
          part,
          await serverVersion(docker, containerId, data),
          (major) => `version ${major}`,
        );
        return loadAndCount(docker, repo, containerId, data, part);
      },
      restoreId,
    );
    const inVolume = pathInVolume(volume, DATA_DIR);
    const unit = await swapUnit(context, restoreId, {
      live: volume.dockerVolume,
      livePath: inVolume,
      staging: scratch,
      stagingPath: inVolume,
      keep: [],
    });
    return { service: part.service, checked, units: [unit] };
  },

  async checkLive({ docker }, data, part) {
    await waitForServer(docker, data.containerId, data, data.service);
    return compareTables(part, await countRows(docker, data.containerId, data));
  },
};
