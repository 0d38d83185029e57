import { createRequire } from 'node:module';
import type DockerModem from 'docker-modem';
import type Dockerode from 'dockerode';
import { deadlineOf, EngineDeadlineError } from './engineDeadlines.js';
import { recordAnswered, recordUnanswered } from './unansweredContainers.js';

const require = createRequire(import.meta.url);

/**
 * A module that loads only when its export is first called: Node's module cache is given a stand-in for
 * `request` whose export is a function calling the real module's (loaded then, in its place in the cache).
 * Only for modules whose export is a single function; does nothing when the module is already loaded or
 * cannot be found.
 */
export function loadWhenCalled(from: NodeJS.Require, request: string): void {
  let filename: string;
  try {
    filename = from.resolve(request);
  } catch {
    return;
  }
  if (from.cache[filename]) return;
  let real: ((...args: unknown[]) => unknown) | undefined;
  const load = () => {
    if (!real) {
      delete from.cache[filename];
      real = from(filename) as (...args: unknown[]) => unknown;
    }
    return real;
  };
  from.cache[filename] = {
    id: filename,
    filename,
    loaded: true,
    exports: function (this: unknown, ...args: unknown[]) {
      return load().apply(this, args);
    },
  } as NodeJS.Module;
}

// dockerode loads two transports at start that Slipway's engine calls never use: Docker over SSH
// (docker-modem's ssh.js, which loads ssh2 and its 16 MB WebAssembly crypto memory) and BuildKit sessions
// (dockerode's session.js, which loads gRPC and protobuf). Each is one function, called only for an `ssh://`
// engine or a BuildKit build; together they are ~11 MB of the server's resident memory (bench/footprint.ts).
loadWhenCalled(createRequire(require.resolve('dockerode')), 'docker-modem/lib/ssh.js');
loadWhenCalled(require, 'dockerode/lib/session.js');

const Docker = require('dockerode') as typeof Dockerode;

/** A stable name for an engine: its socket, or its host and port. */
export function engineKey(docker: Dockerode): string {
  const modem = docker.modem as { socketPath?: string; host?: string; port?: number | string };
  return modem.socketPath
    ? `unix:${modem.socketPath}`
    : `tcp:${modem.host ?? 'localhost'}:${modem.port ?? ''}`;
}

/**
 * Every call of this client gets its deadline from engineDeadlines.ts (`scale` shortens them all, for tests): the
 * modem's `dial` is where every dockerode method ends, so the table is applied in one place. A call past its
 * deadline is aborted and fails with the table's sentence; a stream past its start deadline likewise, while a stream
 * that started is never cut. (The modem's own `timeout` option is an idle timeout on the socket: it would cut a
 * quiet log stream, and is not used.) A call about a container records whether the engine answered about it
 * (unansweredContainers.ts).
 */
export function withDeadlines(docker: Dockerode, options: { scale?: number } = {}): Dockerode {
  const modem = docker.modem as DockerModem;
  const dial = modem.dial.bind(modem);
  const engine = engineKey(docker);
  const scale = options.scale ?? 1;
  modem.dial = (options, callback) => {
    const call = deadlineOf(options);
    const deadline = call.deadline && { ...call.deadline, ms: call.deadline.ms * scale };
    if (!deadline) {
      dial(options, callback);
      return;
    }
    const controller = new AbortController();
    const signal = options.abortSignal
      ? AbortSignal.any([options.abortSignal, controller.signal])
      : controller.signal;
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      const error = new EngineDeadlineError(call, deadline.ms, deadline.kind);
      if (call.containerId) recordUnanswered(engine, call.containerId, error.message);
      // Answered at once, whatever the abort does: the request is destroyed and its late answer dropped.
      callback?.(error, null);
      controller.abort(error);
    }, deadline.ms);
    dial({ ...options, abortSignal: signal }, (error, result) => {
      clearTimeout(timer);
      if (settled) {
        // A stream that started after its deadline was answered: nobody reads it.
        (result as { destroy?: () => void } | null)?.destroy?.();
        return;
      }
      settled = true;
      // Any answer from the engine (an HTTP status) says it answers about the container; a dropped
      // connection says nothing about it.
      if (call.containerId && (!error || (error as { statusCode?: number }).statusCode !== undefined)) {
        recordAnswered(engine, call.containerId);
      }
      callback?.(error, result);
    });
  };
  return docker;
}

/** A Docker Engine client (dockerode): its unused transports not loaded (see above), every call with its deadline. */
export function createDocker(options: Omit<Dockerode.DockerOptions, 'timeout'>): Dockerode {
  return withDeadlines(new Docker(options));
}
