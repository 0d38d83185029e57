import { createRequire } from 'node:module';
import type Dockerode from 'dockerode';

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

/** A Docker Engine client (dockerode), without its unused transports loaded (see above). */
export function createDocker(options: Dockerode.DockerOptions): Dockerode {
  return new Docker(options);
}
