import { createInterface } from 'node:readline/promises';
import { CliError, EXIT } from './cliErrors.js';

/** Reads a line from the terminal in raw mode without echoing it (a token must not stay on the screen). */
function readSecret(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let answer = '';
    const done = (result: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      result();
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return done(() => resolve(answer));
        if (char === '\u0003') return done(() => reject(new CliError('Interrupted', EXIT.interrupted)));
        if (char === '\u007f' || char === '\b') answer = answer.slice(0, -1);
        else if (char >= ' ') answer += char;
      }
    };
    stdin.on('data', onData);
  });
}

/**
 * Asks on the terminal (the question on stderr, so stdout stays the command's); a secret answer is not echoed.
 * Undefined when stdin is not a terminal: the caller needs a flag instead.
 */
export function terminalPrompt() {
  if (!process.stdin.isTTY) return undefined;
  return async (question: string, options: { secret?: boolean } = {}) => {
    if (options.secret) return readSecret(question);
    const readline = createInterface({ input: process.stdin, output: process.stderr });
    // Ctrl-C at the question: readline only pauses on its own, which would leave the question unanswered.
    const interrupted = new Promise<never>((_, reject) =>
      readline.once('SIGINT', () => reject(new CliError('Interrupted', EXIT.interrupted))),
    );
    try {
      return await Promise.race([readline.question(question), interrupted]);
    } finally {
      readline.close();
    }
  };
}
