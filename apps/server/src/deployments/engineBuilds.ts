import { BuildContextError } from '../infra/compose/buildContext.js';
import { isObj, type Obj } from '../infra/compose/composeMerge.js';
import { buildImage, ImageBuildError } from '../infra/compose/imageBuild.js';
import { classifyBuildError } from './failureReport.js';
import { type RunState, requireTarget, StepFailure } from './runState.js';
import { BUILD_TIMEOUT_MS } from './servingProject.js';

/**
 * Builds the images of a project Compose v1 runs through the engine's API, all at once: Compose v1 builds one
 * service after another in `up --build`, and its `build --parallel` is another start of the Python CLI. Each
 * line goes to the build log under its service's name (`web | Step 1/4 : …`) and, as it was printed, to
 * `onLine` (buildStages.ts reads the image ids). The first build that fails ends the others; its reason is the
 * step's failure.
 */
export async function buildThroughEngine(state: RunState, project: Obj, onLine: (line: string) => void) {
  const { docker } = requireTarget(state);
  const services = isObj(project.services) ? project.services : {};
  const builds = Object.entries(services).flatMap(([service, raw]) =>
    isObj(raw) && isObj(raw.build) && state.imageNames[service]
      ? [{ service, build: raw.build, tag: state.imageNames[service]! }]
      : [],
  );
  const stopped = new AbortController();
  const signal = AbortSignal.any([state.signal, stopped.signal, AbortSignal.timeout(BUILD_TIMEOUT_MS)]);
  const width = Math.max(...builds.map(({ service }) => service.length));
  const results = await Promise.allSettled(
    builds.map(async ({ service, build, tag }) => {
      state.log.write(`Building ${service}`);
      try {
        await buildImage(
          docker,
          { build, tag },
          {
            signal,
            onLine: (line) => {
              state.log.write(`${service.padEnd(width)} | ${line}`);
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
    }),
  );
  if (!state.signal.aborted && signal.aborted && !stopped.signal.aborted) {
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
