import { type EnvVariable, envKeyProblem } from '@slipway/contract';

/** The first problem with the rows to upload, as the server would word it. */
export function rowsProblem(rows: EnvVariable[]): string | undefined {
  if (rows.length === 0) return 'Please add at least one environment variable';
  for (const row of rows) {
    const problem = envKeyProblem(row.key);
    if (problem) return problem;
  }
  return undefined;
}
