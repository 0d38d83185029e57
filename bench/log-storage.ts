/**
 * Log storage (issue 16): stores LINES realistic service log lines (default 100 000, three services, as the
 * collector stores them) in a fresh embedded database on disk (PGlite, or the PostgreSQL database DATABASE_URL names), then prints
 * the log table's bytes on disk (heap, indexes, TOAST) against the bytes of the log text, before and after a
 * prune that keeps a tenth by the size bound. Goal: ≤ 2× the text, and the pruned space given back.
 * Run: `npx tsx bench/log-storage.ts`.
 */
import { startEmbeddedPlatform } from './embeddedPlatform.js';

const LINES = Number(process.env.LINES ?? 100_000);
const BATCH = 500;
const SERVICES = ['web', 'worker', 'db'];
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

function sampleLine(i: number): string {
  const kinds = [
    () =>
      `${new Date(1_700_000_000_000 + i * 37).toISOString()} GET /api/items/${i % 977}?page=${i % 13} 200 ${i % 90} ms`,
    () => `job ${i} finished in ${(i % 500) / 10} s, queue depth ${i % 31}`,
    () => `LOG:  duration: ${(i % 1000) / 100} ms  statement: SELECT * FROM items WHERE id = ${i}`,
  ];
  return kinds[i % kinds.length]!();
}

async function main() {
  const ctx = await startEmbeddedPlatform(
    process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {},
  );
  try {
    const { userId } = ctx;
    const store = ctx.platform.runningApps.logStore;
    const empty = await store.bytesOnDisk();
    let textBytes = 0;
    const start = Date.now() - LINES;
    for (let offset = 0; offset < LINES; offset += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, LINES - offset) }, (_, k) => {
        const i = offset + k;
        const line = sampleLine(i);
        textBytes += Buffer.byteLength(line);
        return {
          userId,
          workspaceName: 'bench',
          service: SERVICES[i % SERVICES.length]!,
          containerId: `c${i % SERVICES.length}0123456789a`,
          source: 'stdout' as const,
          ts: new Date(start + i),
          line,
        };
      });
      await store.insertBatch(batch);
    }
    const filled = (await store.bytesOnDisk()) - empty;
    const ratio = filled / textBytes;
    console.log(
      `${LINES} lines, ${mb(textBytes)} of text: ${mb(filled)} on disk (${ratio.toFixed(2)}× the text)`,
    );

    const keepBytes = Math.floor(textBytes / 10);
    const removed = await store.prune({ lines: LINES, bytes: keepBytes, days: 14 });
    const afterDelete = (await store.bytesOnDisk()) - empty;
    await store.reclaim(removed > (await store.countLines()));
    const afterReclaim = (await store.bytesOnDisk()) - empty;
    const keptText = Math.min(keepBytes, textBytes);
    console.log(
      `pruned ${removed} lines to keep ${mb(keepBytes)} of text: ${mb(afterDelete)} on disk right after the delete, ${mb(afterReclaim)} after reclaiming (${(afterReclaim / keptText).toFixed(2)}× the kept text)`,
    );
    console.log(`RESULT\tlog storage on disk ÷ log text\t${ratio.toFixed(2)}×\t≤ 2×\t—`);
    console.log(
      `RESULT\tlog storage after pruning to a tenth\t${mb(afterReclaim)} (was ${mb(filled)})\tspace returned\t—`,
    );
  } finally {
    await ctx.close();
  }
}

await main();
