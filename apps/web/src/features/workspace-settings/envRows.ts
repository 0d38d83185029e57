import { type EnvVariable, envKeyProblem } from '@slipway/contract';

export interface DraftRow {
  key: string;
  value: string;
}

/** Rows of the 'Add More Variables' modal that count: non-empty trimmed key and value. */
export function filledRows(rows: DraftRow[]): EnvVariable[] {
  return rows
    .map((row) => ({ key: row.key.trim(), value: row.value }))
    .filter((row) => row.key !== '' && row.value.trim() !== '');
}

/** The first problem with the rows to upload, as the server would word it. */
export function rowsProblem(rows: EnvVariable[]): string | undefined {
  if (rows.length === 0) return 'Please add at least one environment variable';
  for (const row of rows) {
    const problem = envKeyProblem(row.key);
    if (problem) return problem;
  }
  return undefined;
}

/** KEY=VALUE lines pasted into a key field become rows: the deployment screen's .env rules (lib/envFile). */
export { parseEnvText } from '../../lib/envFile';
