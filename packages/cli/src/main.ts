import { CliError, EXIT } from './cliErrors.js';
import { parseCommandLine } from './commandLine.js';
import { COMMANDS } from './commands/commandTable.js';
import { Output } from './output.js';
import { configFilePath, readStoredLogin, resolveTarget } from './settings.js';
import { SlipwayClient } from './slipwayClient.js';
import { terminalPrompt } from './terminalPrompt.js';

/** Runs one command line; answers the exit status. Every failure is one sentence on stderr. */
export async function run(argv: readonly string[]): Promise<number> {
  try {
    const invocation = parseCommandLine(argv);
    if (!invocation) return EXIT.ok;
    const configFile = configFilePath();
    const target = resolveTarget({ url: invocation.url }, process.env, await readStoredLogin(configFile));
    const ctx = {
      target,
      client: new SlipwayClient(target),
      output: new Output(invocation.json),
      configFile,
      ask: terminalPrompt(),
    };
    const handler = COMMANDS[invocation.command] as (c: typeof ctx, a: typeof invocation) => Promise<number>;
    return await handler(ctx, invocation);
  } catch (error) {
    if (error instanceof CliError) {
      if (error.message) process.stderr.write(`${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`Unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.failure;
  }
}

process.exitCode = await run(process.argv.slice(2));
