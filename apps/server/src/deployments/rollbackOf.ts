/** The deployment metadata key of the version a rollback goes back to. */
export const ROLLBACK_OF = 'rollback_of';

/** The deployment a rollback goes back to, as its row records it (`metadata.rollback_of`). */
export function rollbackOf(row: { metadata: unknown }): string | undefined {
  const value = (row.metadata as { rollback_of?: unknown } | null)?.rollback_of;
  return typeof value === 'string' ? value : undefined;
}
