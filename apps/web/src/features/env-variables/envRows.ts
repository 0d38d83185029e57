import { completePairs, type EnvPair, isCompletePair } from '../../lib/envFile';

/** One editable row of the environment variables editor. */
export interface EnvRow {
  id: string;
  key: string;
  value: string;
  /** A locked row shows its values with Edit and Delete. */
  isReadOnly: boolean;
}

/** Characters key and value each need (trimmed) before Tab or Enter locks the row. */
export const MIN_LOCK_LENGTH = 2;

let counter = 0;
export function newRowId(): string {
  counter += 1;
  return `row-${Date.now().toString(36)}-${counter}`;
}

export function emptyRow(): EnvRow {
  return { id: newRowId(), key: '', value: '', isReadOnly: false };
}

export const isComplete = isCompletePair;

export function isEmpty(row: Pick<EnvRow, 'key' | 'value'>): boolean {
  return row.key.trim() === '' && row.value.trim() === '';
}

export function canLockByKeyboard(row: Pick<EnvRow, 'key' | 'value'>): boolean {
  return row.key.trim().length >= MIN_LOCK_LENGTH && row.value.trim().length >= MIN_LOCK_LENGTH;
}

/** The variables to send: rows with a non-empty trimmed key and value. */
export const completeVariables: (rows: readonly EnvRow[]) => EnvPair[] = completePairs;

/** Deleting the last row leaves one empty row. */
export function removeRow(rows: readonly EnvRow[], id: string): EnvRow[] {
  const rest = rows.filter((row) => row.id !== id);
  return rest.length > 0 ? rest : [emptyRow()];
}

/** Pasted pairs replace the empty rows and are appended after the filled ones, all locked. */
export function applyPaste(rows: readonly EnvRow[], pairs: readonly EnvPair[]): EnvRow[] {
  const filled = rows.filter((row) => !isEmpty(row));
  return [...filled, ...pairs.map((pair) => ({ id: newRowId(), ...pair, isReadOnly: true }))];
}

/** Upload merge: existing variables first, same-named keys take the file's value, new keys appended. */
export function mergeUploaded(rows: readonly EnvRow[], pairs: readonly EnvPair[]): EnvRow[] {
  const incoming = new Map<string, string>();
  for (const pair of pairs) incoming.set(pair.key, pair.value);
  const merged: EnvRow[] = [];
  for (const row of rows) {
    if (isEmpty(row)) continue;
    const key = row.key.trim();
    if (incoming.has(key)) {
      merged.push({ ...row, key, value: incoming.get(key) ?? '', isReadOnly: true });
      incoming.delete(key);
    } else {
      merged.push(row);
    }
  }
  for (const [key, value] of incoming) merged.push({ id: newRowId(), key, value, isReadOnly: true });
  return merged.length > 0 ? merged : [emptyRow()];
}
