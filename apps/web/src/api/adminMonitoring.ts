import { useQuery } from '@tanstack/react-query';
import { fetchContainersRaw, fetchMachineRaw, type RawResponse } from './admin';
import { adminKeys } from './adminQueries';

/**
 * The admin System Monitoring reads of the cAdvisor proxy, each answer turned into what the tab shows
 * by `parse`. Never retried and kept only while the tab is mounted: a failure shows the tab's error
 * panel until a later read succeeds. `pollMs` false: no timed reads.
 */
const monitoringQuery = { retry: false, gcTime: 0, refetchIntervalInBackground: true } as const;

/** The host: read once; while it could not be read, again every `pollMs` (or on refetch). */
export function useCadvisorMachine<Machine>(parse: (raw: RawResponse) => Machine, pollMs: number | false) {
  return useQuery({
    ...monitoringQuery,
    queryKey: adminKeys.cadvisorMachine,
    queryFn: async () => parse(await fetchMachineRaw()),
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: (query) => (query.state.data === undefined ? pollMs : false),
  });
}

/** The containers: read once `enabled` (the host is known), then every `pollMs` and on refetch. */
export function useCadvisorContainers<Containers>(
  parse: (raw: RawResponse) => Containers,
  enabled: boolean,
  pollMs: number | false,
) {
  return useQuery({
    ...monitoringQuery,
    queryKey: adminKeys.cadvisorContainers,
    queryFn: async () => parse(await fetchContainersRaw()),
    enabled,
    staleTime: 0,
    refetchInterval: pollMs,
  });
}
