import { readFileSync } from 'node:fs';
import { VM_SIZE_IDS } from '@slipway/contract';
import { Command, CommanderError, Option } from 'commander';
import { UsageError } from './cliErrors.js';
import {
  collect,
  parseAssignment,
  parseBackupId,
  parseKey,
  parseLineCount,
  parseRepository,
  parseVmSize,
  parseWorkspace,
  type VmSizeId,
} from './commandArguments.js';

/** Every command, as the rest of the CLI sees it once commander has read the command line. */
export type Invocation = { json: boolean; url: string | undefined } & (
  | { command: 'login'; token: string | undefined }
  | { command: 'logout' }
  | { command: 'whoami' }
  | { command: 'workspaces' }
  | {
      command: 'deploy';
      owner: string;
      repo: string;
      branch: string;
      size: VmSizeId | undefined;
      redeploy: boolean;
    }
  | { command: 'status'; workspace: string | undefined }
  | { command: 'logs'; workspace: string; service: string | undefined; follow: boolean; lines: number }
  | { command: 'rollback'; workspace: string; revision: string | undefined }
  | { command: 'env list'; workspace: string }
  | { command: 'env set'; workspace: string; variables: { key: string; value: string }[] }
  | { command: 'env unset'; workspace: string; keys: string[] }
  | { command: 'env import'; workspace: string; file: string }
  | { command: 'delete'; workspace: string; yes: boolean }
  | { command: 'backups list'; workspace: string }
  | { command: 'backups create'; workspace: string; wait: boolean }
  | { command: 'backups key'; workspace: string }
  | {
      command: 'backups restore';
      workspace: string;
      backup: string;
      service: string | undefined;
      yes: boolean;
      wait: boolean;
    }
);
export type CommandName = Invocation['command'];
type Fields<N extends CommandName> = Omit<Extract<Invocation, { command: N }>, 'command' | 'json' | 'url'>;

/** The package's version: package.json is one level up from src/ in a clone and from dist/ when published. */
const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The commander program; each action hands its invocation to `found`. */
function buildProgram(found: (invocation: Invocation) => void): Command {
  const program = new Command('slipway')
    .description('Deploy and run Slipway workspaces from a terminal or CI.')
    .version(VERSION, '-v, --version')
    .addOption(new Option('--json', 'print one machine-readable JSON document on stdout, nothing else'))
    .addOption(
      new Option(
        '--url <url>',
        'the Slipway server (default: SLIPWAY_URL, the login, http://localhost:3000)',
      ),
    )
    .exitOverride();
  program.configureOutput({ outputError: () => {} });

  const emit =
    <N extends CommandName>(command: N, fields: (...args: never[]) => Fields<N>) =>
    (...args: unknown[]) => {
      const self = args[args.length - 1] as Command;
      const globals = self.optsWithGlobals<{ json?: boolean; url?: string }>();
      found({
        command,
        json: globals.json === true,
        url: globals.url,
        ...(fields as (...a: unknown[]) => Fields<N>)(...args),
      } as Invocation);
    };

  program
    .command('login')
    .description('check an API token and keep it, with the server, in the config file (mode 0600)')
    .option('--token <token>', 'the API token (slw_…); asked for when left out')
    .action(emit('login', (options: { token?: string }) => ({ token: options.token })));
  program
    .command('logout')
    .description('forget the kept login (the token stays valid until revoked in Account Settings)')
    .action(emit('logout', () => ({})));
  program
    .command('whoami')
    .description('the account the token belongs to')
    .action(emit('whoami', () => ({})));
  program
    .command('workspaces')
    .description('list your workspaces')
    .action(emit('workspaces', () => ({})));
  program
    .command('deploy')
    .description('deploy a branch of a repository and follow it to the end')
    .argument('<owner/repo>', 'the repository', parseRepository)
    .option('--branch <branch>', 'the branch to deploy', 'main')
    .option(
      '--size <id>',
      `the VM size: ${VM_SIZE_IDS.join(' or ')} (the server’s default when left out)`,
      parseVmSize,
    )
    .option('--redeploy', 'deploy a new version of an existing workspace', false)
    .action(
      emit(
        'deploy',
        (
          repository: { owner: string; repo: string },
          options: { branch: string; size?: VmSizeId; redeploy: boolean },
        ) => ({ ...repository, branch: options.branch, size: options.size, redeploy: options.redeploy }),
      ),
    );
  program
    .command('status')
    .description('a workspace’s state, services and latest deployment; every workspace’s state without one')
    .argument('[workspace]', 'the workspace', parseWorkspace)
    .action(emit('status', (workspace: string | undefined) => ({ workspace })));
  program
    .command('logs')
    .description('a workspace’s service logs')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .option('--service <service>', 'only this service’s lines')
    .option('-f, --follow', 'keep printing new lines until interrupted', false)
    .option('-n, --lines <count>', 'how many of the latest lines to print first', parseLineCount, 100)
    .action(
      emit('logs', (workspace: string, options: { service?: string; follow: boolean; lines: number }) => ({
        workspace,
        service: options.service,
        follow: options.follow,
        lines: options.lines,
      })),
    );
  program
    .command('rollback')
    .description('start a kept revision again (default: the newest one before the current)')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .argument('[revision]', 'a deployment id, or its first characters')
    .action(emit('rollback', (workspace: string, revision: string | undefined) => ({ workspace, revision })));

  const env = program.command('env').description('a workspace’s environment variables');
  env
    .command('list')
    .description('print the variables as KEY=VALUE (needs the secrets:read scope)')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .action(emit('env list', (workspace: string) => ({ workspace })));
  env
    .command('set')
    .description('set one or more variables')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .argument(
      '<KEY=VALUE...>',
      'assignments; the value is everything after the first =',
      collect(parseAssignment),
    )
    .action(
      emit('env set', (workspace: string, variables: { key: string; value: string }[]) => ({
        workspace,
        variables,
      })),
    );
  env
    .command('unset')
    .description('remove one or more variables')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .argument('<KEY...>', 'variable names', collect(parseKey))
    .action(emit('env unset', (workspace: string, keys: string[]) => ({ workspace, keys })));
  env
    .command('import')
    .description('add or update every variable of a .env file')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .argument('<file>', 'a .env file (dotenv syntax: quotes, multi-line values, comments)')
    .action(emit('env import', (workspace: string, file: string) => ({ workspace, file })));

  program
    .command('delete')
    .description('delete a workspace: its containers, images, volumes and variables')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .option('-y, --yes', 'do not ask (needed when stdin is not a terminal)', false)
    .action(
      emit('delete', (workspace: string, options: { yes: boolean }) => ({ workspace, yes: options.yes })),
    );

  const backups = program
    .command('backups')
    .description('a workspace’s backups: list, take one, restore one, export the key');
  backups
    .command('list')
    .description('the backup schedule, every backup newest first, and the latest restore')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .action(emit('backups list', (workspace: string) => ({ workspace })));
  backups
    .command('create')
    .description('back up now and wait until the backup is Verified or Failed')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .option('--no-wait', 'print the started backup and return at once')
    .action(
      emit('backups create', (workspace: string, options: { wait: boolean }) => ({
        workspace,
        wait: options.wait,
      })),
    );
  backups
    .command('key')
    .description(
      'the repository’s location and password, to restore with plain restic if Slipway is lost (keep it safe)',
    )
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .action(emit('backups key', (workspace: string) => ({ workspace })));
  backups
    .command('restore')
    .description('restore a Verified backup and wait for the outcome')
    .argument('<workspace>', 'the workspace', parseWorkspace)
    .argument('<backup-id>', 'a backup id, or its first characters', parseBackupId)
    .option('--service <service>', 'restore only this service’s data (default: every service of the backup)')
    .option('-y, --yes', 'do not ask (needed when stdin is not a terminal)', false)
    .option('--no-wait', 'print the started restore and return at once')
    .action(
      emit(
        'backups restore',
        (workspace: string, backup: string, options: { service?: string; yes: boolean; wait: boolean }) => ({
          workspace,
          backup,
          service: options.service,
          yes: options.yes,
          wait: options.wait,
        }),
      ),
    );

  for (const command of [...program.commands, ...env.commands, ...backups.commands]) {
    command.exitOverride().configureOutput({ outputError: () => {} });
  }
  return program;
}

/**
 * Reads the command line (without `node` and the script). Answers the invocation, or undefined when commander
 * printed help or the version; throws a UsageError (exit 2) for anything it cannot read.
 */
export function parseCommandLine(argv: readonly string[]): Invocation | undefined {
  let invocation: Invocation | undefined;
  const program = buildProgram((found) => {
    invocation = found;
  });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return undefined;
    // `slipway env` without a subcommand: commander printed the help (on stderr); that is a usage error too.
    if (error.code === 'commander.help') throw new UsageError('A command is missing: see the list above');
    throw new UsageError(`${error.message.replace(/^error: /, '')}\nRun \`slipway --help\` for usage.`);
  }
  return invocation;
}
