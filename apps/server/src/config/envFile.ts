import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'dotenv';
import { REPOSITORY_ROOT } from './config.js';

/** The `.env` file Slipway reads at start, beside `.env.example` in the repository root. */
export const ENV_FILE = path.join(REPOSITORY_ROOT, '.env');

/**
 * The environment with the `.env` file's variables added: a variable set in the real environment
 * always wins over the file, and a missing file is no error (the file is optional).
 */
export function withEnvFile(
  environment: NodeJS.ProcessEnv,
  file: string = ENV_FILE,
): { env: NodeJS.ProcessEnv; loaded: string | undefined } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { env: environment, loaded: undefined };
    throw error;
  }
  return { env: { ...parse(text), ...environment }, loaded: file };
}
