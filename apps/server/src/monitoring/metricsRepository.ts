import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { metricSamples } from '../infra/db/schema.js';

export function createMetricsRepository(db: Db) {
  return {
    async add(
      workspaceId: string,
      sample: { cpuPercent: number; memoryBytes: number; memoryPercent: number },
    ) {
      await db.insert(metricSamples).values({
        workspaceId,
        cpuPercent: Math.round(sample.cpuPercent * 100),
        memoryBytes: Math.round(sample.memoryBytes),
        memoryPercent: Math.round(sample.memoryPercent * 100),
      });
    },

    async since(workspaceId: string, since: Date) {
      const rows = await db
        .select()
        .from(metricSamples)
        .where(and(eq(metricSamples.workspaceId, workspaceId), gte(metricSamples.ts, since)))
        .orderBy(asc(metricSamples.ts));
      return rows.map((row) => ({
        ts: row.ts.toISOString(),
        cpu: row.cpuPercent / 100,
        memory: row.memoryPercent / 100,
      }));
    },

    async pruneOlderThan(hours: number) {
      await db
        .delete(metricSamples)
        .where(lt(metricSamples.ts, sql`now() - make_interval(hours => ${hours})`));
    },
  };
}

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
