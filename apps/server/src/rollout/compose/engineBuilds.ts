import { isDeepStrictEqual } from 'node:util';
import type Docker from 'dockerode';
import { BuildContextError } from '../../infra/compose/buildContext.js';
import { ImageBuildError } from '../../infra/compose/buildOutput.js';
import { isObj, type Obj } from '../../infra/compose/composeMerge.js';
import { buildImage } from '../../infra/compose/imageBuild.js';
import type { EngineRun } from '../engine.js';
import { StepFailure } from '../stepFailure.js';
import { classifyBuildError } from './composeFailures.js';
import { BUILD_TIMEOUT_MS } from './projectFiles.js';

interface ServiceBuild {
  service: string;
  build: Obj;
  tag: string;
  /** Services with the very same `build` section: one build, their names put on its image. */
  alike: { service: string; tag: string }[];
}

/** The project's builds, one per distinct `build` section (a web and a worker built from `.` are one build). */
function distinctBuilds(project: Obj, imageNames: Record<string, string>): ServiceBuild[] {
  const services = isObj(project.services) ? project.services : {};
  const builds: ServiceBuild[] = [];
  for (const [service, raw] of Object.entries(services)) {
    const tag = imageNames[service];
    if (!isObj(raw) || !isObj(raw.build) || !tag) continue;
    const same = builds.find((build) => isDeepStrictEqual(build.build, raw.build));
    if (same) same.alike.push({ service, tag });
    else builds.push({ service, build: raw.build, tag, alike: [] });
  }
  return builds;
}

/**
 * Builds the images of a project Compose v1 runs through the engine's API, all at once: Compose v1 builds one
 * service after another in `up --build`, and its `build --parallel` is another start of the Python CLI. Each
 * line goes to the build log under its service's name (`web | Step 1/4 : …`) and, as it was printed, to
 * `onLine` (buildStages.ts reads the image ids). Services with the same `build` section share one build (at
 * once, each would build it all over again). The first build that fails ends the others; its reason is the
 * step's failure.
 */
export async function buildThroughEngine(
  docker: Docker,
  project: Obj,
  imageNames: Record<string, string>,
  run: EngineRun,
  onLine: (line: string) => void,
) {
  const builds = distinctBuilds(project, imageNames);
  const stopped = new AbortController();
  const signal = AbortSignal.any([run.signal, stopped.signal, AbortSignal.timeout(BUILD_TIMEOUT_MS)]);
  const width = Math.max(...builds.map(({ service }) => service.length));
  const results = await Promise.allSettled(
    builds.map(async ({ service, build, tag, alike }) => {
      run.log(`Building ${service}`);
      for (const other of alike) run.log(`${other.service}: the same build as ${service}`);
      try {
        await buildImage(
          docker,
          { build, tag },
          {
            signal,
            onLine: (line) => {
              run.log(`${service.padEnd(width)} | ${line}`);
              onLine(line);
            },
          },
        );
      } catch (error) {
        stopped.abort();
        if (error instanceof ImageBuildError)
          throw new StepFailure(classifyBuildError(service, error.message));
        if (error instanceof BuildContextError) {
          throw new StepFailure(`Service '${service}' cannot be built: ${error.message}`);
        }
        throw error;
      }
      for (const other of alike) {
        const at = other.tag.lastIndexOf(':');
        await docker.getImage(tag).tag({ repo: other.tag.slice(0, at), tag: other.tag.slice(at + 1) });
      }
    }),
  );
  if (!run.signal.aborted && signal.aborted && !stopped.signal.aborted) {
    throw new StepFailure(`The build timed out after ${Math.round(BUILD_TIMEOUT_MS / 60_000)} minutes`);
  }
  // The build that failed first says why; the others stopped because it did.
  const failed = results.find(
    (result): result is PromiseRejectedResult =>
      result.status === 'rejected' && result.reason instanceof StepFailure,
  );
  const rejected = failed ?? results.find((result) => result.status === 'rejected');
  if (rejected) throw (rejected as PromiseRejectedResult).reason;
}
