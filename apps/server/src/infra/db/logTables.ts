import { bigserial, customType, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** PostgreSQL bytea as a Buffer (PGlite hands back a Uint8Array, node-postgres a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * Stored log output in chunks: one row per flush of one workspace, kind, service and container (build
 * logs: of one deployment); the lines themselves are in `payload` (logs/logChunkFormat.ts). A line's id is
 * `id * LINE_ID_STRIDE + first_index + position`; `first_index` grows when a prune trims the chunk's oldest lines.
 */
export const logChunks = pgTable(
  'log_chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    workspaceName: text('workspace_name').notNull(),
    deploymentId: uuid('deployment_id'),
    kind: text('kind').notNull(),
    service: text('service').notNull().default(''),
    containerId: text('container_id').notNull().default(''),
    firstTs: timestamp('first_ts', { withTimezone: true }).notNull(),
    lastTs: timestamp('last_ts', { withTimezone: true }).notNull(),
    firstIndex: integer('first_index').notNull().default(0),
    lineCount: integer('line_count').notNull(),
    byteCount: integer('byte_count').notNull(),
    payload: bytea('payload').notNull(),
  },
  (t) => [
    // History reads newest chunks first across services and redeploys, then merges their lines by time.
    index('log_chunks_workspace_ts_idx').on(t.userId, t.workspaceName, t.kind, t.lastTs),
    index('log_chunks_deployment_idx').on(t.deploymentId, t.id),
  ],
);
