import { CliError, EXIT, errorDocument } from './cliErrors.js';
import { parseCommandLine } from './commandLine.js';
import type { CommandContext } from './commands/commandContext.js';
import { COMMANDS } from './commands/commandTable.js';
import { Output } from './output.js';
import { configFilePath, readStoredLogin, resolveTarget } from './settings.js';
import { SlipwayClient } from './slipwayClient.js';
import { terminalPrompt } from './terminalPrompt.js';

/** Whether the command line asks for --json, read before commander does: a usage error answers in JSON too. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * Ends a command that failed: its sentence on stderr and, with --json, `{error, exitCode}` on stdout. Anything
 * that is not a CliError is a bug of the CLI: said in a sentence too, with its stack only under SLIPWAY_DEBUG.
 */
export function reportFailure(output: Output, error: unknown): number {
  if (error instanceof CliError) {
    if (error.message) output.note(error.message);
    if (output.json) output.document(errorDocument(error));
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  output.note(
    process.env.SLIPWAY_DEBUG
      ? `Unexpected error in the slipway CLI: ${(error as Error)?.stack ?? message}`
      : `Unexpected error in the slipway CLI: ${message} (a bug; SLIPWAY_DEBUG=1 shows where it happened)`,
  );
  if (output.json) output.document({ error: `Unexpected error: ${message}`, exitCode: EXIT.internal });
  return EXIT.internal;
}

/** Runs one command line; answers the exit status. Every failure is one sentence on stderr. */
export async function run(argv: readonly string[]): Promise<number> {
  const output = new Output(wantsJson(argv));
  try {
    const invocation = parseCommandLine(argv);
    if (!invocation) return EXIT.ok;
    const configFile = configFilePath();
    const stored = await readStoredLogin(configFile);
    // `login` replaces whatever the file holds and `logout` removes it: a damaged one must not stop them.
    const ignoreDamaged = invocation.command === 'login' || invocation.command === 'logout';
    const target = resolveTarget({ url: invocation.url }, process.env, stored, { ignoreDamaged });
    const ctx: CommandContext = {
      target,
      client: new SlipwayClient(target),
      output,
      configFile,
      stored,
      ask: terminalPrompt(),
    };
    const handler = COMMANDS[invocation.command] as (
      c: CommandContext,
      a: typeof invocation,
    ) => Promise<number>;
    return await handler(ctx, invocation);
  } catch (error) {
    return reportFailure(output, error);
  }
}

// A reader that went away (`slipway logs -f | head`) ends the command quietly, as other commands do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
});
process.stderr.on('error', () => {
  // Nowhere left to say anything: the exit status still tells.
});
// Whatever escapes the command (a callback's error) is still one sentence, never a stack trace.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    process.exit(reportFailure(new Output(wantsJson(process.argv.slice(2))), error));
  });
}

process.exitCode = await run(process.argv.slice(2));
