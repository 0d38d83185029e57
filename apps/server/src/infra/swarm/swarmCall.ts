import type Dockerode from 'dockerode';

/** One VM of a cluster as the control plane reaches it: its engine and its address on the private network. */
export interface NodeEngine {
  /** A name for messages (the VM's name). */
  name: string;
  /** The address the other nodes and Caddy reach it at (Swarm's advertise and data-path address). */
  address: string;
  docker: Dockerode;
}

/** The default bound of one engine call; calls that wait on the engine's work take their own. */
export const ENGINE_CALL_MS = 15_000;

export class SwarmCallError extends Error {
  constructor(
    readonly what: string,
    message: string,
    readonly statusCode?: number,
  ) {
    super(`${what}: ${message}`);
    this.name = 'SwarmCallError';
  }
}

const statusOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number'
    ? error.statusCode
    : undefined;

/**
 * Every engine call of the Swarm adapter goes through here: the signal is handed to dockerode (which aborts the
 * request) and a timer bounds the call even where a call ignores it. Errors become SwarmCallError naming the call.
 */
export async function engineCall<T>(
  what: string,
  call: (signal: AbortSignal) => Promise<T>,
  ms = ENGINE_CALL_MS,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new SwarmCallError(what, `no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), deadline]);
  } catch (error) {
    if (error instanceof SwarmCallError) throw error;
    const text = error instanceof Error ? error.message : String(error);
    throw new SwarmCallError(what, text, statusOf(error));
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `read` until it returns a value (not undefined) or `ms` pass; the last read error is kept in the message. */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T | undefined>,
  ms: number,
  everyMs = 500,
): Promise<T> {
  const until = Date.now() + ms;
  let last = '';
  for (;;) {
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= until)
      throw new SwarmCallError(what, `not reached within ${ms} ms${last ? ` (${last})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
