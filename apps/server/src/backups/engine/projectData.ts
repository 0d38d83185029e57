import type { BackupMethod } from '@slipway/contract';
import type Docker from 'dockerode';
import { LABELS } from '../../infra/docker/conventions.js';
import type { ServiceData, VolumeMount } from './backupEngine.js';

/** A service labelled so is stopped and started again around its files copy instead of paused. */
export const BACKUP_MODE_LABEL = 'dev.slipway.backup';

/** The environment a dump needs, by method; nothing else of the container's environment is kept. */
const CREDENTIAL_KEYS: Record<BackupMethod, RegExp> = {
  postgres: /^(POSTGRES_USER|POSTGRES_PASSWORD|POSTGRES_DB|PGDATA|PGUSER|PGPASSWORD)$/,
  mysql:
    /^(MYSQL_ROOT_PASSWORD|MARIADB_ROOT_PASSWORD|MYSQL_ALLOW_EMPTY_PASSWORD|MARIADB_ALLOW_EMPTY_ROOT_PASSWORD)$/,
  mongodb: /^(MONGO_INITDB_ROOT_USERNAME|MONGO_INITDB_ROOT_PASSWORD)$/,
  redis: /^(REDIS_PASSWORD)$/,
  files: /^$/,
};

function parseEnv(env: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of env ?? []) {
    const equals = entry.indexOf('=');
    if (equals > 0) out[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return out;
}

/** The image's repository name without registry, tag or digest: `docker.io/library/postgres:15` → `postgres`. */
function imageName(image: string): string {
  const withoutDigest = image.split('@')[0] ?? image;
  const last = withoutDigest.split('/').at(-1) ?? withoutDigest;
  return (last.split(':')[0] ?? last).toLowerCase();
}

/**
 * A database recognised by its image's name, then by its settings; `files` for anything else. Settings alone
 * are weak (an app that connects to PostgreSQL has POSTGRES_PASSWORD too), so they count with PGDATA or with a
 * volume where that server keeps its files.
 */
export function recogniseMethod(
  image: string,
  env: Record<string, string>,
  mountPaths: string[] = [],
): BackupMethod {
  const name = imageName(image);
  const has = (pattern: RegExp) => Object.keys(env).some((key) => pattern.test(key));
  const mounts = (prefix: string) =>
    mountPaths.some((path) => path === prefix || path.startsWith(`${prefix}/`));
  if (/postgres|postgis|timescale/.test(name)) return 'postgres';
  if (/mysql|mariadb|percona/.test(name)) return 'mysql';
  if (/mongo/.test(name)) return 'mongodb';
  if (/redis|valkey|keydb/.test(name)) return 'redis';
  if (has(/^PGDATA$/) || (has(/^POSTGRES_/) && mounts('/var/lib/postgresql'))) return 'postgres';
  if (has(/^(MYSQL_|MARIADB_)/) && mounts('/var/lib/mysql')) return 'mysql';
  if (has(/^MONGO_INITDB_/) && mounts('/data/db')) return 'mongodb';
  return 'files';
}

function credentialsOf(method: BackupMethod, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([key]) => CREDENTIAL_KEYS[method].test(key)));
}

/**
 * The project's running services that keep data in named volumes, each with how it is backed up. The volumes'
 * Compose names come from the engine's volume labels (`com.docker.compose.volume`), falling back to the name
 * without the project's prefix.
 */
export async function describeProjectData(docker: Docker, projectName: string): Promise<ServiceData[]> {
  const containers = await docker.listContainers({
    filters: { label: [`${LABELS.composeProject}=${projectName}`], status: ['running', 'paused'] },
  });
  const services: ServiceData[] = [];
  for (const summary of containers) {
    const info = await docker.getContainer(summary.Id).inspect();
    const named = (info.Mounts ?? []).filter((mount) => mount.Type === 'volume' && mount.Name);
    if (named.length === 0) continue;
    const volumes: VolumeMount[] = [];
    for (const mount of named) {
      const dockerVolume = mount.Name!;
      const labels = await docker
        .getVolume(dockerVolume)
        .inspect()
        .then((volume) => volume.Labels ?? {})
        .catch(() => ({}) as Record<string, string>);
      const volume =
        labels['com.docker.compose.volume'] ??
        (dockerVolume.startsWith(`${projectName}_`)
          ? dockerVolume.slice(projectName.length + 1)
          : dockerVolume);
      volumes.push({ volume, dockerVolume, path: mount.Destination });
    }
    const env = parseEnv(info.Config.Env);
    const method = recogniseMethod(
      info.Config.Image,
      env,
      volumes.map((volume) => volume.path),
    );
    services.push({
      service: info.Config.Labels?.[LABELS.composeService] ?? info.Name.replace(/^\//, ''),
      containerId: info.Id,
      image: info.Config.Image,
      method,
      volumes: volumes.sort((a, b) => a.path.localeCompare(b.path)),
      stopForCopy: info.Config.Labels?.[BACKUP_MODE_LABEL] === 'stop',
      credentials: credentialsOf(method, env),
    });
  }
  return services.sort((a, b) => a.service.localeCompare(b.service));
}
