import { readFile } from 'node:fs/promises';
import { ENV_MAX_VARIABLES, envKeyProblem, envValueProblem } from '@slipway/contract';
import { parse } from 'dotenv';
import { UsageError } from './cliErrors.js';

/**
 * The variables of a .env file, read by dotenv's own rules (the ones the server's .env follows: comments,
 * `export`, single, double and back quotes, multi-line double-quoted values with \n) and checked by the
 * contract's rules for names and values before anything is sent.
 */
export function parseDotenv(text: string): { key: string; value: string }[] {
  const variables = Object.entries(parse(text)).map(([key, value]) => ({ key, value }));
  for (const { key, value } of variables) {
    const problem = envKeyProblem(key) ?? envValueProblem(key, value);
    if (problem) throw new UsageError(problem);
  }
  if (variables.length > ENV_MAX_VARIABLES) {
    throw new UsageError(`A workspace can hold at most ${ENV_MAX_VARIABLES} environment variables`);
  }
  return variables;
}

export async function readDotenvFile(file: string): Promise<{ key: string; value: string }[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  const variables = parseDotenv(text);
  if (variables.length === 0) throw new UsageError(`${file} holds no variables (KEY=VALUE lines)`);
  return variables;
}
