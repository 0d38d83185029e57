import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CheckResult, CheckTask } from './composeCheck.js';

/**
 * Runs compose checks (composeCheck.ts) in worker threads, so a hostile file costs its own thread, never the event
 * loop that serves every other user. Each task gets a worker of its own (an idle one when there is one, else a new
 * one); a task that passes its time limit, or a worker that runs out of its memory cap, is terminated and the
 * task refused. A few idle workers are kept warm (unref'd: they never hold the process open).
 */
export const CHECK_TIMEOUT_MS = 10_000;
/** Start-up is not the task's work: a loaded machine may take a while to load a worker from sources. */
const START_TIMEOUT_MS = 120_000;
const MAX_IDLE = 2;
const MEMORY_LIMIT_MB = 512;

export class CheckTimeoutError extends Error {
  override name = 'CheckTimeoutError';
}

const SELF = new URL(import.meta.url);
const require = createRequire(import.meta.url);
const RUNS_FROM_SOURCE = SELF.pathname.endsWith('.ts');

function spawnWorker(): Worker {
  const entry = new URL(`./composeCheckWorker.${RUNS_FROM_SOURCE ? 'ts' : 'js'}`, SELF);
  const options = { resourceLimits: { maxOldGenerationSizeMb: MEMORY_LIMIT_MB } };
  // Run from TypeScript sources (tsx, vitest): the worker registers tsx's loader before importing its entry.
  // tsx is resolved here, so the worker finds it whatever the process's working directory.
  const tsx = JSON.stringify(
    new URL('dist/esm/api/index.mjs', pathToFileURL(require.resolve('tsx/package.json'))).href,
  );
  const bootstrap = `import(${tsx}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  const worker = RUNS_FROM_SOURCE
    ? new Worker(bootstrap, { ...options, eval: true })
    : new Worker(entry, options);
  // A worker that dies while idle must not be handed a task.
  worker.once('exit', () => {
    const at = idle.indexOf(worker);
    if (at !== -1) idle.splice(at, 1);
  });
  ready.set(
    worker,
    new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (!message?.ready) return;
        worker.off('message', onMessage);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', () => reject(new Error('The compose check worker stopped while starting')));
    }),
  );
  // Nobody may be waiting yet (a warm worker); a failed start is reported to the task that uses it.
  ready.get(worker)?.catch(() => undefined);
  return worker;
}

/** Resolves once a worker has loaded its entry and listens for tasks. */
const ready = new WeakMap<Worker, Promise<void>>();

async function whenReady(worker: Worker): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready.get(worker),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('The compose check worker did not start')),
          START_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    void worker.terminate();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

const idle: Worker[] = [];
let nextId = 1;

export async function runCheckInWorker(task: CheckTask, timeoutMs = CHECK_TIMEOUT_MS): Promise<CheckResult> {
  const worker = idle.pop() ?? spawnWorker();
  worker.ref();
  await whenReady(worker);
  const id = nextId++;
  return new Promise<CheckResult>((resolve, reject) => {
    const finish = (keep: boolean) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (keep && idle.length < MAX_IDLE) {
        worker.unref();
        idle.push(worker);
      } else void worker.terminate();
    };
    const timer = setTimeout(() => {
      finish(false);
      reject(new CheckTimeoutError(`Checking the compose project took longer than ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const onMessage = (message: { id: number; ok: boolean; result?: CheckResult; error?: string }) => {
      if (message.id !== id) return;
      finish(true);
      if (message.ok) resolve(message.result!);
      else reject(new Error(message.error));
    };
    const onError = (error: Error) => {
      finish(false);
      reject(
        (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new CheckTimeoutError('Checking the compose project needed more memory than allowed')
          : error,
      );
    };
    const onExit = () => {
      finish(false);
      reject(new Error('The compose check worker stopped'));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ id, task });
  });
}

/** Starts one worker ahead of need, so the first deployment does not pay its start-up. */
export function warmCheckWorkers() {
  if (idle.length === 0) {
    const worker = spawnWorker();
    worker.unref();
    idle.push(worker);
  }
}
