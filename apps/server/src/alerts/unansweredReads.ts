import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { LABELS } from '../infra/docker/conventions.js';
import { isEngineDeadlineError } from '../infra/docker/engineDeadlines.js';
import { stillUnanswered } from '../infra/docker/unansweredContainers.js';
import { type ContainerSummary, engineKey } from '../workspaces/workspaceDocker.js';

/**
 * The health checks' readings of containers, past one the engine does not answer about: a reading of it fails at
 * once with the sentence of the call that went unanswered (the checks go on without it), the container being asked
 * again in the background once a minute (unansweredContainers.ts). The first time a reading passes its deadline,
 * the log says so, with the container and its workspace.
 */
export function createUnansweredReads(logger: Logger) {
  async function read<T>(docker: Docker, container: ContainerSummary, reading: () => Promise<T>): Promise<T> {
    const known = stillUnanswered(engineKey(docker), container.Id, reading);
    if (known) throw new Error(known.sentence);
    try {
      return await reading();
    } catch (error) {
      if (isEngineDeadlineError(error)) {
        logger.warn(
          { err: error, container: container.Id, workspace: container.Labels?.[LABELS.workspaceId] },
          'the Docker Engine does not answer about a container; its checks are skipped until it does',
        );
      }
      throw error;
    }
  }
  return {
    read,
    inspect: (docker: Docker, container: ContainerSummary) =>
      read(docker, container, () => docker.getContainer(container.Id).inspect()),
  };
}
