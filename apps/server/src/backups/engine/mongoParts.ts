import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { byLine, execStream, execText } from '../../infra/docker/containerExec.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import type { PartResult, ServiceData } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import type { PartMethod } from './partMethod.js';
import {
  compareTables,
  dataVolume,
  majorVersion,
  pathInVolume,
  stageInThrowawayServer,
  withThrowawayServer,
} from './partMethod.js';
import { backUpOutput, producerError, restoreInto, waitUntil } from './streamedPart.js';
import { swapUnit } from './volumeSwap.js';

const DATA_DIR = '/data/db';

/*
 * MongoDB (mongodump/mongorestore from the database tools, mongosh): written to the same pattern as the other
 * databases but not run here — no MongoDB image can be built offline on the test machines. The password never
 * reaches argv: the tools read it from a --config file of mode 0600 written in the container's /tmp for the
 * one command and removed after, mongosh's script from its environment.
 */

const archiveFile = (service: string) => `${service}.archive`;
const SYSTEM_DATABASES = ['admin', 'config', 'local'];

const user = (data: ServiceData) => data.credentials.MONGO_INITDB_ROOT_USERNAME;
const password = (data: ServiceData) => data.credentials.MONGO_INITDB_ROOT_PASSWORD;

/** Runs a database tool with the password in a config file of its own, removed when it is done. */
async function withToolConfig<T>(
  docker: Docker,
  containerId: string,
  data: ServiceData,
  work: (args: string[]) => Promise<T>,
): Promise<T> {
  if (!user(data)) return work([]);
  const path = `/tmp/slipway-${randomUUID()}.yaml`;
  const yaml = `password: ${JSON.stringify(password(data) ?? '')}\n`;
  const writing = await execStream(docker, containerId, ['sh', '-c', 'umask 077 && cat > "$1"', 'sh', path], {
    stdin: Readable.from([yaml]),
  });
  writing.stdout.resume();
  await writing.finished;
  try {
    return await work([`--config=${path}`, '--username', user(data)!, '--authenticationDatabase', 'admin']);
  } finally {
    await execText(docker, containerId, ['rm', '-f', '--', path]).catch(() => {});
  }
}

/** A mongosh script, authenticated from its environment; answers what it printed. */
async function mongosh(
  docker: Docker,
  containerId: string,
  data: ServiceData,
  script: string,
): Promise<string> {
  const login =
    "if (process.env.SLIPWAY_MONGO_USER) db.getSiblingDB('admin').auth(process.env.SLIPWAY_MONGO_USER, process.env.SLIPWAY_MONGO_PASSWORD);";
  const env = user(data)
    ? [`SLIPWAY_MONGO_USER=${user(data)}`, `SLIPWAY_MONGO_PASSWORD=${password(data) ?? ''}`]
    : [];
  return execText(docker, containerId, ['mongosh', '--quiet', '--norc', '--eval', `${login}\n${script}`], {
    env,
  });
}

const COUNT_DOCUMENTS = `const counts = {};
for (const { name } of db.adminCommand({ listDatabases: 1, nameOnly: true }).databases) {
  if (${JSON.stringify(SYSTEM_DATABASES)}.includes(name)) continue;
  const database = db.getSiblingDB(name);
  for (const collection of database.getCollectionInfos({ type: 'collection' })) {
    if (collection.name.startsWith('system.')) continue;
    counts[name + '/' + collection.name] = database.getCollection(collection.name).countDocuments({});
  }
}
print(JSON.stringify(counts));`;

const countDocuments = async (docker: Docker, containerId: string, data: ServiceData) =>
  JSON.parse(
    (await mongosh(docker, containerId, data, COUNT_DOCUMENTS)).trim().split('\n').at(-1) ?? '{}',
  ) as Record<string, number>;

const serverVersion = async (docker: Docker, containerId: string, data: ServiceData) =>
  (await mongosh(docker, containerId, data, 'print(db.version())')).trim().split('\n').at(-1) ?? '';

/** mongodump's own count of each collection it wrote: `done dumping shop.items (2500 documents)`. */
export function dumpedCounts(): { onStderr: (text: string) => void; tables: Record<string, number> } {
  const tables: Record<string, number> = {};
  return {
    tables,
    onStderr: byLine((line) => {
      const match = /done dumping ([^.\s]+)\.(\S+) \((\d+) documents?\)/.exec(line);
      if (match && !SYSTEM_DATABASES.includes(match[1]!))
        tables[`${match[1]}/${match[2]}`] = Number(match[3]);
    }),
  };
}

async function load(
  docker: Docker,
  repo: ResticRepository,
  containerId: string,
  data: ServiceData,
  part: PartResult,
) {
  await withToolConfig(docker, containerId, data, (auth) =>
    restoreInto(
      repo,
      part.snapshotId,
      archiveFile(part.service),
      (input) =>
        execStream(docker, containerId, ['mongorestore', '--archive', '--drop', ...auth], { stdin: input }),
      `Loading the dump of ${part.service}`,
      part.sha256,
    ),
  );
}

/** Waits for the real mongod (the official image's entrypoint runs a first one to create the root user). */
async function waitForServer(docker: Docker, containerId: string, data: ServiceData, what: string) {
  await waitUntil(
    async () =>
      (await execText(docker, containerId, ['cat', '/proc/1/cmdline'])).startsWith('mongod') &&
      /1/.test(await mongosh(docker, containerId, data, 'print(db.adminCommand({ ping: 1 }).ok)')),
    async () => {
      const state = (await docker.getContainer(containerId).inspect()).State;
      if (!state.Running) throw new BackupError(`${what} stopped (exit ${state.ExitCode})`);
    },
    what,
  );
}

/** Refuses a dump of another major version than the server it would load into. */
function refuseOtherVersion(part: PartResult, running: string) {
  if (part.fingerprint.kind !== 'tables')
    throw new BackupError(`${part.service}: this part is not a database dump`);
  const [from, to] = [
    majorVersion('mongodb', part.fingerprint.serverVersion),
    majorVersion('mongodb', running),
  ];
  if (from !== to) {
    throw new BackupError(
      `The dump of ${part.service} is from MongoDB ${from} and the running server is MongoDB ${to}: nothing was changed.`,
    );
  }
}

const credentialsEnv = (data: ServiceData) =>
  Object.entries(data.credentials).map(([key, value]) => `${key}=${value}`);

export const mongoParts: PartMethod = {
  file: archiveFile,

  async backUp({ docker }, repo, data, tags) {
    const version = await serverVersion(docker, data.containerId, data).catch((error: unknown) => {
      throw producerError(`The dump of ${data.service}`, error);
    });
    const { tables, onStderr } = dumpedCounts();
    const stored = await withToolConfig(docker, data.containerId, data, async (auth) => {
      const dumping = await execStream(docker, data.containerId, ['mongodump', '--archive', ...auth], {
        onStderr,
      });
      return backUpOutput(repo, dumping, [], `The dump of ${data.service}`, archiveFile(data.service), tags);
    });
    return {
      service: data.service,
      method: 'mongodb',
      volumes: data.volumes.map((volume) => volume.volume),
      ...stored,
      fingerprint: { kind: 'tables', serverVersion: version, tables },
    };
  },

  async verify(context, repo, data, part) {
    const { docker } = context;
    return withThrowawayServer(
      context,
      data,
      dataVolume(data, DATA_DIR),
      credentialsEnv(data),
      async (id) => {
        await waitForServer(docker, id, data, 'The throwaway MongoDB');
        await load(docker, repo, id, data, part);
        return compareTables(part, await countDocuments(docker, id, data));
      },
    );
  },

  async stage(context, repo, data, part, restoreId) {
    const { docker } = context;
    const volume = dataVolume(data, DATA_DIR);
    const { scratch, checked } = await stageInThrowawayServer(
      context,
      data,
      volume,
      credentialsEnv(data),
      async (id) => {
        await waitForServer(docker, id, data, 'The throwaway MongoDB');
        refuseOtherVersion(part, await serverVersion(docker, id, data));
        await load(docker, repo, id, data, part);
        return compareTables(part, await countDocuments(docker, id, data));
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
    return compareTables(part, await countDocuments(docker, data.containerId, data));
  },
};
