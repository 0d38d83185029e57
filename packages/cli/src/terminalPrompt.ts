import { createInterface } from 'node:readline/promises';

/**
 * Asks on the terminal (the question on stderr, so stdout stays the command's); a secret answer is not echoed.
 * Undefined when stdin is not a terminal: the caller needs a flag instead.
 */
export function terminalPrompt() {
  if (!process.stdin.isTTY) return undefined;
  return async (question: string, options: { secret?: boolean } = {}) => {
    const readline = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    if (options.secret) {
      // readline echoes through _writeToOutput; the question is written first, then nothing of the answer.
      const rl = readline as unknown as { _writeToOutput: (text: string) => void };
      let asked = false;
      rl._writeToOutput = (text: string) => {
        if (!asked) {
          process.stderr.write(text);
          asked = true;
        }
      };
    }
    try {
      return await readline.question(question);
    } finally {
      if (options.secret) process.stderr.write('\n');
      readline.close();
    }
  };
}
