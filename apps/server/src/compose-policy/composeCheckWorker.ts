import { parentPort } from 'node:worker_threads';
import { type CheckTask, runCheck } from './composeCheck.js';

/** The check worker's entry: one task at a time, answered by id (see checkWorkerPool.ts). */
parentPort?.on('message', (message: { id: number; task: CheckTask }) => {
  try {
    parentPort?.postMessage({ id: message.id, ok: true, result: runCheck(message.task) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, ok: false, error: (error as Error).message ?? String(error) });
  }
});

// Loaded and listening: the pool starts a task's time limit from here, not from the thread's start-up.
parentPort?.postMessage({ ready: true });
