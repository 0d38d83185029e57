import { useCadvisorContainers, useCadvisorMachine } from '../../../api/adminMonitoring';
import { buildContainerMetrics } from './containerMetrics';
import { parseContainersResponse, parseMachineResponse, unansweredIn } from './monitoringResponse';

/** Spec §9: refresh options in ms (0 = no auto-refresh), 5 s by default. */
export const REFRESH_INTERVALS = [0, 2000, 5000, 10000, 30000] as const;
export const DEFAULT_REFRESH_MS = 5000;

/**
 * The machine is read once; containers on mount, on Refresh Now, and every `intervalMs` while the tab
 * is on screen. A failure of either shows the error panel until a later read succeeds.
 */
export function useContainerMonitoring(intervalMs: number, active: boolean) {
  const pollMs = active && intervalMs > 0 ? intervalMs : false;
  const machine = useCadvisorMachine(parseMachineResponse, pollMs);
  const cores = machine.data?.num_cores ?? 1;
  const containers = useCadvisorContainers(
    (raw) => ({
      metrics: buildContainerMetrics(parseContainersResponse(raw), cores),
      unanswered: unansweredIn(raw),
    }),
    machine.data !== undefined,
    pollMs,
  );
  const failure = machine.error ?? containers.error;

  /** Reads what is missing: the machine while it is unknown (the containers follow), else the containers. */
  const refresh = () => {
    const query = machine.data === undefined ? machine : containers;
    void query.refetch({ cancelRefetch: false });
  };

  return {
    machine: machine.data,
    containers: containers.data?.metrics,
    /** Containers the engine did not answer about: their cards are missing. */
    unanswered: containers.data?.unanswered ?? [],
    error: failure ? failure.message : null,
    loading: machine.isFetching || containers.isFetching,
    refresh,
  };
}
