import type Docker from 'dockerode';
import { containerLastLines } from '../logs/containerLastLines.js';
import type { DockerLogLine } from '../logs/dockerLogLines.js';
import { serviceName } from '../workspaces/workspaceDocker.js';
import { type Crash, containerName } from './healthChecks.js';

/** Lines read from the engine for a crash: what a notification shows. */
const CRASH_LOG_LINES = 30;

/**
 * The dead run's lines. A container that was not restarted has printed nothing since: all its lines are the
 * dead run's (its last ones can be stamped after the death: the engine stamps a line when its log driver
 * reads it). A restarted container's log holds both runs, and the new run's first lines can be stamped before
 * its recorded start; but the engine restarts a container 100 ms after its death at the earliest, so the
 * dead run is what was stamped before that.
 */
const RESTART_DELAY_MS = 100;

async function linesOfDeadRun(docker: Docker, containerId: string, diedAt: Date, tty: boolean) {
  const lines = await containerLastLines(docker, containerId, { tail: 2 * CRASH_LOG_LINES, tty });
  const now = await docker.getContainer(containerId).inspect();
  // A container that never died has the engine's zero time (year 1) as its death: nothing to cut.
  const restarted = diedAt.getTime() > 0 && new Date(now.State.StartedAt).getTime() > diedAt.getTime();
  const cutoff = restarted ? diedAt.getTime() + RESTART_DELAY_MS : Number.POSITIVE_INFINITY;
  return lines.filter((line) => line.ts.getTime() < cutoff).slice(-CRASH_LOG_LINES);
}

/**
 * The last lines of a container found dead by a check, its death event not handled yet: the dead run's, as for
 * the event, though the engine may have restarted it since it was inspected (more likely on a busy machine).
 */
export async function lastLinesOf(docker: Docker, containerId: string): Promise<DockerLogLine[]> {
  const info = await docker.getContainer(containerId).inspect();
  return linesOfDeadRun(docker, containerId, new Date(info.State.FinishedAt), info.Config.Tty);
}

/**
 * What the engine knows about a container that just died: the exit code of its `die` event (inspect can
 * already show the restarted container's), whether the engine flagged it OOM-killed (its `oom` event, which may
 * come later, is the caller's: oomWatch.ts) and the lines it printed before dying.
 */
export async function readCrash(
  docker: Docker,
  event: { containerId: string; labels: Record<string, string>; time: Date },
): Promise<{ crash: Crash; lastLines: DockerLogLine[] }> {
  const info = await docker
    .getContainer(event.containerId)
    .inspect()
    .catch(() => undefined);
  const eventCode = Number(event.labels.exitCode);
  const lastLines = info
    ? await linesOfDeadRun(docker, event.containerId, event.time, info.Config.Tty).catch(() => [])
    : [];
  const name = info
    ? containerName({ Names: [info.Name], Id: info.Id })
    : (event.labels.name ?? event.containerId.slice(0, 12));
  const crash: Crash = {
    container: name,
    service: serviceName({ Labels: event.labels, Names: [name] }),
    exitCode: Number.isFinite(eventCode) ? eventCode : (info?.State.ExitCode ?? -1),
    oomKilled: info?.State.OOMKilled ?? false,
    at: event.time,
    // stdout and stderr are copied apart, so their order within a millisecond is not the program's; the
    // last error line is the likelier explanation.
    lastLine: (lastLines.findLast((line) => line.source === 'stderr') ?? lastLines.at(-1))?.line,
  };
  return { crash, lastLines };
}
