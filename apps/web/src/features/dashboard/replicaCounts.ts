/**
 * How many containers each service runs, from the containers' service names: a replica is named
 * `{service}.{n}` (the server names each replica so in logs, health and alerts), a single container `{service}`.
 */
export function replicaCounts(services: string[], containerServices: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const service of services) {
    const replica = new RegExp(`^${service.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+$`);
    counts[service] = containerServices.filter((name) => name === service || replica.test(name)).length;
  }
  return counts;
}
