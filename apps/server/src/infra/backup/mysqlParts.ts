import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { PartResult, ResticRepository, ServiceData } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import { type ExecOptions, execStream, execText } from './containerExec.js';
import { MysqlDumpCounter, SYSTEM_SCHEMAS } from './mysqlDumpCounter.js';
import type { PartMethod } from './partMethod.js';
import { compareTables, dataVolume, refuseOtherMajorVersion, withThrowawayServer } from './partMethod.js';
import { backUpOutput, producerError, restoreInto, waitUntil } from './streamedPart.js';

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
  );
}

export const mysqlParts: PartMethod = {
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
    const { docker } = context;
    const env = Object.entries(data.credentials).map(([key, value]) => `${key}=${value}`);
    const volume = dataVolume(data, '/var/lib/mysql');
    return withThrowawayServer(context, data, volume, env, async (containerId) => {
      // The official images first run a server without networking for their init scripts, then restart it.
      await waitUntil(
        async () => (await sql(docker, containerId, data, 'SELECT @@skip_networking'))[0]?.[0] === '0',
        async () => {
          const state = (await docker.getContainer(containerId).inspect()).State;
          if (!state.Running)
            throw new BackupError(`The throwaway database stopped (exit ${state.ExitCode})`);
        },
        'The throwaway database',
      );
      await loadDump(docker, repo, containerId, data, part);
      return compareTables(part, await countRows(docker, containerId, data));
    });
  },

  async restore({ docker }, repo, data, part) {
    refuseOtherMajorVersion(
      'mysql',
      part,
      await serverVersion(docker, data.containerId, data),
      (major) => `version ${major}`,
    );
    // The dump recreates its databases and tables; databases made since would stay, so every user database goes
    // first (the system ones are overwritten table by table by the dump).
    const schemas = await sql(
      docker,
      data.containerId,
      data,
      `SELECT schema_name FROM information_schema.schemata WHERE ${userSchemas.replace('table_schema', 'schema_name')}`,
    );
    const drops = schemas.map(([name]) => `DROP DATABASE \`${name!.replace(/`/g, '``')}\`;\n`);
    const { client } = await tools(docker, data.containerId);
    const dropping = await execStream(
      docker,
      data.containerId,
      [client, '-u', 'root'],
      clientOptions(data, { stdin: Readable.from(drops) }),
    );
    dropping.stdout.resume();
    await dropping.finished.catch((error) => {
      throw producerError(`Emptying ${part.service} before the restore`, error);
    });
    await loadDump(docker, repo, data.containerId, data, part);
    const check = compareTables(part, await countRows(docker, data.containerId, data));
    if (!check.ok)
      throw new BackupError(`The restore of ${part.service} did not bring every row back: ${check.reason}`);
  },
};
