import { PassThrough, type Readable, type Transform } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { ResticRepository, StreamBackup } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import type { RunningExec } from './containerExec.js';

/** The producer's failure as the sentence on the backup's row. */
export function producerError(what: string, error: unknown): BackupError {
  if (error instanceof BackupError) return error;
  return new BackupError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * Streams a command's stdout, through `observers` (which read the bytes as they pass: row counts, file lists),
 * into one file of a new restic snapshot. restic sees the end of its input only after the command exited 0:
 * a dump that fails half-way stops restic before it writes a snapshot of half a dump.
 */
export async function backUpOutput(
  repo: ResticRepository,
  producer: RunningExec,
  observers: Transform[],
  what: string,
  filename: string,
  tags: string[],
): Promise<StreamBackup> {
  // Who failed first decides the sentence: the command, an observer, or restic.
  const producerState: { outcome: 'running' | 'ok' | { failure: unknown } } = { outcome: 'running' };
  producer.finished.then(
    () => {
      producerState.outcome = 'ok';
    },
    (failure: unknown) => {
      producerState.outcome = { failure };
    },
  );
  let observerFailure: unknown;
  const gate = new PassThrough();
  const fail = (error: Error) => {
    observerFailure ??= error;
    gate.destroy(error);
  };
  let source: Readable = producer.stdout;
  for (const observer of observers) {
    source.once('error', fail);
    source = source.pipe(observer);
  }
  source.once('error', fail);
  source.pipe(gate, { end: false });
  source.once('end', () => {
    producer.finished.then(
      () => gate.end(),
      (error) => gate.destroy(error),
    );
  });
  producer.finished.catch((error) => gate.destroy(error));
  try {
    return await repo.backupStream(gate, filename, tags);
  } catch (error) {
    // restic stopped first (a full disk, a wrong password): the command must not stay blocked on its output.
    const { outcome } = producerState;
    if (outcome === 'running') producer.cancel();
    if (typeof outcome === 'object') throw producerError(what, outcome.failure);
    if (observerFailure) throw producerError(what, observerFailure);
    throw error;
  }
}

/** Streams a snapshot's file into a command's stdin (`start` runs it); both must succeed. */
export async function restoreInto(
  repo: ResticRepository,
  snapshotId: string,
  filename: string,
  start: (input: Readable) => Promise<RunningExec>,
  what: string,
): Promise<void> {
  const read = repo.dumpStream(snapshotId, filename);
  let consumer: RunningExec;
  try {
    consumer = await start(read.stdout);
  } catch (error) {
    read.kill();
    throw producerError(what, error);
  }
  consumer.stdout.resume();
  // A consumer that failed reads no more: restic must not stay blocked writing to it.
  consumer.finished.catch(() => read.kill());
  const [readResult, consumerResult] = await Promise.allSettled([read.done, consumer.finished]);
  if (readResult.status === 'rejected') throw readResult.reason;
  if (consumerResult.status === 'rejected') throw producerError(what, consumerResult.reason);
}

/** Polls `ready` until it answers true; `alive` failing stops the wait with its error. A bound, not a pace. */
export async function waitUntil(
  ready: () => Promise<boolean>,
  alive: () => Promise<void>,
  what: string,
  boundMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline) {
    if (await ready().catch(() => false)) return;
    await alive();
    await delay(250);
  }
  throw new BackupError(`${what} was not ready within ${Math.round(boundMs / 1000)} s`);
}
