import { posix } from 'node:path';
import type Docker from 'dockerode';
import { countOf } from '../../domain/countOf.js';
import { execStream, execText } from '../../infra/docker/containerExec.js';
import { runInThrowaway } from '../../infra/docker/throwawayContainers.js';
import type { PartResult, ServiceData, Verification } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import type { EngineContext, PartMethod } from './partMethod.js';
import { dataVolume, pathInVolume, stageInThrowawayServer, withThrowawayServer } from './partMethod.js';
import { backUpOutput, restoreInto, waitUntil } from './streamedPart.js';
import { swapUnit } from './volumeSwap.js';

const snapshotFile = (service: string) => `${service}.rdb`;

/** redis-cli reads the password from REDISCLI_AUTH: never on its command line. */
const cliEnv = (data: ServiceData) =>
  data.credentials.REDIS_PASSWORD ? [`REDISCLI_AUTH=${data.credentials.REDIS_PASSWORD}`] : [];

const cli = (docker: Docker, containerId: string, data: ServiceData, args: string[]) =>
  execText(docker, containerId, ['redis-cli', '--no-raw', ...args], { env: cliEnv(data) }).then((out) =>
    out.trim(),
  );

/** `INFO section` as a map of its `field:value` lines. */
async function info(docker: Docker, containerId: string, data: ServiceData, section: string) {
  const out = await execText(docker, containerId, ['redis-cli', 'INFO', section], { env: cliEnv(data) });
  const fields: Record<string, string> = {};
  for (const line of out.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return fields;
}

/** Keys in every database (`INFO keyspace`: `db0:keys=3,expires=0,…`). */
async function keyCount(docker: Docker, containerId: string, data: ServiceData): Promise<number> {
  const keyspace = await info(docker, containerId, data, 'keyspace');
  return Object.values(keyspace).reduce((sum, value) => sum + Number(/keys=(\d+)/.exec(value)?.[1] ?? 0), 0);
}

/** Where the server writes its snapshot: `CONFIG GET dir` and `dbfilename`. */
async function snapshotPath(docker: Docker, containerId: string, data: ServiceData): Promise<string> {
  const value = async (name: string) => {
    const out = await execText(docker, containerId, ['redis-cli', 'CONFIG', 'GET', name], {
      env: cliEnv(data),
    });
    return out.split(/\r?\n/)[1]?.trim() ?? '';
  };
  const [dir, file] = [await value('dir'), await value('dbfilename')];
  if (!posix.isAbsolute(dir) || !file || file.includes('/')) {
    throw new BackupError(`${data.service}: Redis did not say where it keeps its snapshot`);
  }
  return posix.join(dir, file);
}

/** BGSAVE, then waits for that save to finish (the save counter moving, or LASTSAVE when there is none). */
async function freshSnapshot(docker: Docker, containerId: string, data: ServiceData): Promise<void> {
  const before = await info(docker, containerId, data, 'persistence');
  const lastSave = await cli(docker, containerId, data, ['LASTSAVE']);
  const answer = await cli(docker, containerId, data, ['BGSAVE', 'SCHEDULE']);
  if (/ERR/.test(answer)) throw new BackupError(`${data.service}: Redis refused BGSAVE: ${answer}`);
  await waitUntil(
    async () => {
      const now = await info(docker, containerId, data, 'persistence');
      if (now.rdb_bgsave_in_progress !== '0') return false;
      const saved =
        now.rdb_saves !== undefined
          ? Number(now.rdb_saves) > Number(before.rdb_saves)
          : (await cli(docker, containerId, data, ['LASTSAVE'])) !== lastSave;
      if (saved && now.rdb_last_bgsave_status !== 'ok') {
        throw new BackupError(
          `${data.service}: Redis could not write its snapshot (rdb_last_bgsave_status ${now.rdb_last_bgsave_status})`,
        );
      }
      return saved;
    },
    async () => {},
    `${data.service}'s Redis snapshot`,
  );
}

async function waitForRedis(
  docker: Docker,
  containerId: string,
  data: ServiceData,
  what: string,
): Promise<void> {
  await waitUntil(
    async () => (await cli(docker, containerId, data, ['PING'])) === 'PONG',
    async () => {
      const state = (await docker.getContainer(containerId).inspect()).State;
      if (!state.Running) throw new BackupError(`${what} stopped (exit ${state.ExitCode})`);
    },
    what,
  );
}

function compareKeys(part: PartResult, keys: number): Verification {
  if (part.fingerprint.kind !== 'keys') return { ok: false, reason: 'The backup recorded no key count' };
  if (keys !== part.fingerprint.keys) {
    return {
      ok: false,
      reason: `${countOf(keys, 'key')} after the restore; the backup recorded ${countOf(part.fingerprint.keys, 'key')}`,
    };
  }
  return { ok: true, checked: countOf(keys, 'key') };
}

/** Writes the part's snapshot file at `path` in a volume mounted at `mountPath`, owned like its directory. */
async function writeSnapshot(
  { docker, owner, helperImage }: EngineContext,
  repo: Parameters<PartMethod['stage']>[1],
  part: PartResult,
  volume: { volume: string; path: string },
  path: string,
): Promise<void> {
  const temporary = `${path}.slipway-restore`;
  await restoreInto(
    repo,
    part.snapshotId,
    snapshotFile(part.service),
    (input) =>
      runInThrowaway(
        { docker, owner },
        {
          image: helperImage,
          // A fixed script; the paths are its arguments. The file appears whole, by rename, or not at all.
          cmd: [
            'sh',
            '-c',
            'cat > "$1" && chown "$(stat -c %u:%g "$(dirname "$2")")" "$1" && mv "$1" "$2"',
            'sh',
            temporary,
            path,
          ],
          volumes: [{ volume: volume.volume, path: volume.path }],
          stdin: input,
        },
      ),
    `Writing ${part.service}'s Redis snapshot`,
    part.sha256,
  );
}

/** The throwaway server's command: the snapshot at `path` loaded, nothing written back. */
const loadOnly = (path: string) => [
  'redis-server',
  '--dir',
  posix.dirname(path),
  '--dbfilename',
  posix.basename(path),
  '--appendonly',
  'no',
  '--save',
  '',
];

/** Redis loads an append-only file instead of the snapshot: such a service cannot be restored from one. */
async function refuseAppendOnly(docker: Docker, data: ServiceData) {
  const appendOnly = (
    await execText(docker, data.containerId, ['redis-cli', 'CONFIG', 'GET', 'appendonly'], {
      env: cliEnv(data),
    })
  )
    .split(/\r?\n/)[1]
    ?.trim();
  if (appendOnly === 'yes') {
    throw new BackupError(
      `${data.service} keeps an append-only file, which Redis would load instead of the snapshot: nothing was changed. Turn appendonly off to restore it.`,
    );
  }
}

export const redisParts: PartMethod = {
  file: snapshotFile,

  async backUp({ docker }, repo, data, tags) {
    const path = await snapshotPath(docker, data.containerId, data);
    const keys = await keyCount(docker, data.containerId, data);
    await freshSnapshot(docker, data.containerId, data);
    const reading = await execStream(docker, data.containerId, ['cat', '--', path]);
    const stored = await backUpOutput(
      repo,
      reading,
      [],
      `Reading ${data.service}'s Redis snapshot`,
      snapshotFile(data.service),
      tags,
    );
    return {
      service: data.service,
      method: 'redis',
      volumes: data.volumes.map((volume) => volume.volume),
      ...stored,
      fingerprint: { kind: 'keys', keys },
    };
  },

  async verify(context, repo, data, part) {
    const { docker } = context;
    const path = await snapshotPath(docker, data.containerId, data);
    const volume = dataVolume(data, posix.dirname(path));
    const env = Object.entries(data.credentials).map(([key, value]) => `${key}=${value}`);
    return withThrowawayServer(
      context,
      data,
      volume,
      env,
      async (containerId) => {
        await waitForRedis(docker, containerId, { ...data, credentials: {} }, 'The throwaway Redis');
        return compareKeys(part, await keyCount(docker, containerId, { ...data, credentials: {} }));
      },
      {
        cmd: loadOnly(path),
        prepare: (scratch) =>
          writeSnapshot(context, repo, part, { volume: scratch, path: volume.path }, path),
      },
    );
  },

  /** The snapshot file written into a new volume and loaded by a throwaway Redis; the swap replaces the file. */
  async stage(context, repo, data, part, restoreId) {
    const { docker } = context;
    await refuseAppendOnly(docker, data);
    const path = await snapshotPath(docker, data.containerId, data);
    const volume = dataVolume(data, posix.dirname(path));
    const env = Object.entries(data.credentials).map(([key, value]) => `${key}=${value}`);
    const { scratch, checked } = await stageInThrowawayServer(
      context,
      data,
      volume,
      env,
      async (containerId) => {
        await waitForRedis(docker, containerId, { ...data, credentials: {} }, 'The throwaway Redis');
        return compareKeys(part, await keyCount(docker, containerId, { ...data, credentials: {} }));
      },
      restoreId,
      {
        cmd: loadOnly(path),
        prepare: (staging) =>
          writeSnapshot(context, repo, part, { volume: staging, path: volume.path }, path),
      },
    );
    const inVolume = pathInVolume(volume, path);
    // Redis writes its dataset over the file when it stops: the swap comes after the stop, and wins.
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
    await waitForRedis(docker, data.containerId, data, data.service);
    return compareKeys(part, await keyCount(docker, data.containerId, data));
  },
};
