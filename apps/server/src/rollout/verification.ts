import type { HealthResult } from '../health/healthVerifier.js';
import type { Slot, VerifyRequest } from './engine.js';
import type { Rolling } from './rolloutRun.js';
import { StepFailure } from './stepFailure.js';

/** The health model applied to a slot of the rollout's version; progress goes to the build log. */
export function checkHealth(
  { engine, run }: Rolling,
  slot: Slot,
  request: Omit<VerifyRequest, 'signal' | 'onProgress'>,
) {
  return engine.verify(slot, { ...request, signal: run.signal, onProgress: run.log });
}

/** The failure with every failed service's summary; the whole of each failed service's log goes to the build log. */
export function healthFailure({ run }: Rolling, result: HealthResult, reason: string): StepFailure {
  for (const [service, log] of Object.entries(result.fullLogs)) {
    run.log(`--- Log of service ${service} ---`);
    for (const line of log.split('\n')) if (line.trim()) run.log(line);
    run.log(`--- End of the log of service ${service} ---`);
  }
  const containerLogs = Object.fromEntries(
    Object.entries(result.containerLogs).map(([service, text]) => [service, run.redact(text)]),
  );
  return new StepFailure(`Health check failed: ${run.redact(reason)}`, {
    health_check_failed: true,
    failure_reason: run.redact(reason),
    failed_services: result.failedServices,
    container_logs: containerLogs,
    service_states: result.states.map((s) => ({ ...s, message: s.message && run.redact(s.message) })),
  });
}

/**
 * `up` stopped early (a one-shot service the others wait for failed, an image could not be pulled): the
 * services that already failed say why better than Compose's last line.
 */
export async function reportStartFailure(
  rolling: Rolling,
  error: unknown,
  preExisting: ReadonlySet<string>,
): Promise<unknown> {
  const { roles, hostPorts } = rolling.version.plan;
  if (!(error instanceof StepFailure) || roles.length === 0) return error;
  const result = await checkHealth(rolling, 'serving', {
    roles,
    hostPorts,
    timeoutMs: 0,
    failuresOnly: true,
    preExisting,
  }).catch(() => undefined);
  if (!result || result.failedServices.length === 0) return error;
  return healthFailure(rolling, result, result.failureReason ?? error.message);
}
