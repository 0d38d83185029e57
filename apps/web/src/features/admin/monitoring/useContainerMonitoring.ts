import type { CadvisorMachineInfo } from '@slipway/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchContainersRaw, fetchMachineRaw } from '../../../api/admin';
import { buildContainerMetrics, type ContainerMetrics } from './containerMetrics';
import { parseContainersResponse, parseMachineResponse } from './monitoringResponse';

/** Spec §9: refresh options in ms (0 = no auto-refresh), 5 s by default. */
export const REFRESH_INTERVALS = [0, 2000, 5000, 10000, 30000] as const;
export const DEFAULT_REFRESH_MS = 5000;

/**
 * The machine is read once; containers on mount, on Refresh Now, and every `intervalMs` while the tab
 * is on screen. A failure of either shows the error panel until a later read succeeds.
 */
export function useContainerMonitoring(intervalMs: number, active: boolean) {
  const [machine, setMachine] = useState<CadvisorMachineInfo>();
  const [containers, setContainers] = useState<ContainerMetrics[]>();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const machineRef = useRef<CadvisorMachineInfo | undefined>(undefined);
  const inFlight = useRef(false);

  const refresh = useCallback(async (includeMachine = false) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setLoading(true);
    try {
      if (includeMachine || !machineRef.current) {
        machineRef.current = parseMachineResponse(await fetchMachineRaw());
        setMachine(machineRef.current);
      }
      const candidates = parseContainersResponse(await fetchContainersRaw());
      setContainers(buildContainerMetrics(candidates, machineRef.current?.num_cores ?? 1));
      setError(null);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      inFlight.current = false;
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    if (!active || intervalMs <= 0) return;
    const timer = setInterval(() => void refresh(), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, refresh]);

  return { machine, containers, error, loading, refresh };
}
