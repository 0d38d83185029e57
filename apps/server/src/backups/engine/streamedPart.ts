import { createHash, type Hash } from 'node:crypto';
import { PassThrough, type Readable, Transform, type TransformCallback } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { RunningExec } from '../../infra/docker/containerExec.js';
import type { ResticRepository, StreamBackup } from '../../infra/restic/resticRepository.js';
import { asBackupError, BackupError } from './backupEngine.js';

/** The producer's failure as the sentence on the backup's row. */
export function producerError(what: string, error: unknown): BackupError {
  return (
    asBackupError(error) ??
    new BackupError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`)
  );
}

/** Passes bytes on unchanged, hashing them (SHA-256) and counting them. */
export class HashingPassThrough extends Transform {
  private readonly hash: Hash = createHash('sha256');
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }

  /** The hex digest, once the stream has ended. */
  digest(): string {
    return this.hash.digest('hex');
  }
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
): Promise<StreamBackup & { sha256: string }> {
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
  const hashing = new HashingPassThrough();
  let source: Readable = producer.stdout;
  for (const observer of [...observers, hashing]) {
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
    const stored = await repo.backupStream(gate, filename, tags);
    return { ...stored, sha256: hashing.digest() };
  } catch (error) {
    // restic stopped first (a full disk, a wrong password): the command must not stay blocked on its output.
    const { outcome } = producerState;
    if (outcome === 'running') producer.cancel();
    if (typeof outcome === 'object') throw producerError(what, outcome.failure);
    if (observerFailure) throw producerError(what, observerFailure);
    throw error;
  }
}

/**
 * Streams a snapshot's file into a command's stdin (`start` runs it); both must succeed. restic authenticates
 * every block it reads; with `sha256` (what the backup stored), the bytes must be those too. Either failing is a
 * BackupError marked `damaged`: the backup's data is not what was stored.
 */
export async function restoreInto(
  repo: ResticRepository,
  snapshotId: string,
  filename: string,
  start: (input: Readable) => Promise<RunningExec>,
  what: string,
  sha256?: string,
): Promise<void> {
  const read = repo.dumpStream(snapshotId, filename);
  const hashing = new HashingPassThrough();
  read.stdout.pipe(hashing);
  let consumer: RunningExec;
  try {
    consumer = await start(hashing);
  } catch (error) {
    read.kill();
    throw producerError(what, error);
  }
  consumer.stdout.resume();
  // A consumer that failed reads no more: restic must not stay blocked writing to it.
  consumer.finished.catch(() => read.kill());
  const [readResult, consumerResult] = await Promise.allSettled([read.done, consumer.finished]);
  if (readResult.status === 'rejected') throw producerError(what, readResult.reason);
  if (sha256) {
    // Everything restic gave must have gone through: a consumer that stopped early has its own failure.
    if (consumerResult.status === 'fulfilled' && !hashing.writableFinished) {
      await new Promise((resolve) => hashing.once('finish', resolve));
    }
    if (hashing.writableFinished && hashing.digest() !== sha256) {
      throw new BackupError(
        `The backup's copy of ${filename} is not what was stored (its checksum differs): it is damaged.`,
        true,
      );
    }
  }
  if (consumerResult.status === 'rejected') throw producerError(what, consumerResult.reason);
}

/**
 * Reads a snapshot's file in full without writing it anywhere: restic authenticates every block, and with
 * `sha256` the bytes must be those stored. Answers the bytes read.
 */
export async function readBackFile(
  repo: ResticRepository,
  snapshotId: string,
  filename: string,
  sha256?: string,
): Promise<number> {
  const read = repo.dumpStream(snapshotId, filename);
  const hashing = new HashingPassThrough();
  read.stdout.pipe(hashing).resume();
  const ended = new Promise<void>((resolve, reject) => {
    hashing.once('end', resolve);
    hashing.once('error', reject);
  });
  await read.done.catch((error: unknown) => {
    throw producerError(`Reading ${filename} back`, error);
  });
  await ended;
  if (sha256 && hashing.digest() !== sha256) {
    throw new BackupError(
      `The backup's copy of ${filename} is not what was stored (its checksum differs): it is damaged.`,
      true,
    );
  }
  return hashing.bytes;
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
