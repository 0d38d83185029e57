import { ResticError } from './resticErrors.js';
import type { RepositoryLocation } from './resticRepository.js';

/** sftp.command is split on spaces by restic: its paths and names must hold none. */
const SSH_WORD = /^[A-Za-z0-9_./@:+-]+$/;

interface Invocation {
  args: string[];
  env: Record<string, string>;
}

/**
 * restic's options for a repository, as an operator types them (`--repo …`, and sftp's command): what a workspace's
 * key export tells its owner, so that plain restic reaches the same repository. No credential is in them.
 */
export function repositoryOptions(location: RepositoryLocation): string[] {
  return locationInvocation(location).args.filter((arg) => arg !== '--no-cache');
}

/** restic's repository argument and the environment or options its location needs; never a secret on argv. */
export function locationInvocation(location: RepositoryLocation): Invocation {
  switch (location.kind) {
    case 'local':
      return { args: ['--repo', location.path, '--no-cache'], env: {} };
    case 'sftp': {
      for (const word of [location.user, location.host, location.identityFile, location.knownHostsFile]) {
        if (!SSH_WORD.test(word))
          throw new ResticError(`An SFTP setting holds a character restic cannot pass: ${word}`);
      }
      const ssh = [
        'ssh',
        '-p',
        String(location.port),
        '-i',
        location.identityFile,
        '-o',
        `UserKnownHostsFile=${location.knownHostsFile}`,
        '-o',
        'StrictHostKeyChecking=yes',
        '-o',
        'BatchMode=yes',
        '-o',
        'IdentitiesOnly=yes',
        `${location.user}@${location.host}`,
        '-s',
        'sftp',
      ].join(' ');
      return {
        args: [
          '--repo',
          `sftp:${location.user}@${location.host}:${location.path}`,
          '-o',
          `sftp.command=${ssh}`,
        ],
        env: {},
      };
    }
    case 's3': {
      const prefix = location.prefix.replace(/^\/+|\/+$/g, '');
      const endpoint = location.endpoint.replace(/\/+$/, '');
      return {
        args: ['--repo', `s3:${endpoint}/${location.bucket}${prefix ? `/${prefix}` : ''}`],
        env: {
          AWS_ACCESS_KEY_ID: location.accessKeyId,
          AWS_SECRET_ACCESS_KEY: location.secretAccessKey,
          ...(location.region ? { AWS_DEFAULT_REGION: location.region } : {}),
        },
      };
    }
  }
}

/** Arguments as a shell reads them back: each one that holds anything but plain characters in single quotes. */
export function shellWords(args: string[]): string {
  return args
    .map((arg) => (/^[A-Za-z0-9_./@:=+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`))
    .join(' ');
}
