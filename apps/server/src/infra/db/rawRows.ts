/**
 * The rows of a raw `db.execute(sql…)`: both drivers (PGlite and node-postgres) answer `{ rows }`, which Drizzle's
 * shared type does not say. `T` is what the statement selects; its columns are the caller's word.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (typeof result === 'object' && result !== null && 'rows' in result && Array.isArray(result.rows)) {
    return result.rows as T[];
  }
  throw new Error('The database answered a raw statement without rows');
}
