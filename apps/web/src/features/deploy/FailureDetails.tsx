import type { DeployJobMetadata } from '@slipway/contract';
import { NO_PORTS_MESSAGE } from '@slipway/contract';
import { AlertTriangle } from 'lucide-react';
import { ServiceStateList } from '../../components/ServiceStateList';

/** What went wrong, from GET /api/deployment/job/{id}: health check, port discovery, or a generic error. */
export function FailureDetails({ job }: { job: DeployJobMetadata | null }) {
  if (job?.health_check_failed) {
    return (
      <div className="space-y-4" data-testid="failure-details">
        <h3 className="font-semibold text-zinc-900">Health Check Failed</h3>
        {job.failure_reason && <p className="text-sm text-zinc-700">{job.failure_reason}</p>}
        <ServiceNames label="Failed services" names={job.failed_services} />
        <ServiceStateList services={job.service_states ?? []} />
        {Object.entries(job.container_logs ?? {}).map(([service, logs]) => (
          <div key={service}>
            <p className="mb-1 text-xs font-medium tracking-wide text-zinc-500 uppercase">
              Container logs: {service}
            </p>
            <pre className="max-h-64 overflow-auto rounded-lg bg-zinc-950 p-3 font-mono text-xs whitespace-pre-wrap text-zinc-200">
              {logs || '(no output)'}
            </pre>
          </div>
        ))}
      </div>
    );
  }
  if (job?.port_discovery_failed) {
    return (
      <div className="space-y-3" data-testid="failure-details">
        <h3 className="font-semibold text-zinc-900">No Ports Found</h3>
        {job.failure_reason && <p className="text-sm text-zinc-700">{job.failure_reason}</p>}
        <ServiceNames label="Expected services" names={job.expected_services} />
        <p className="flex gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" /> {NO_PORTS_MESSAGE}
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-2" data-testid="failure-details">
      <h3 className="font-semibold text-zinc-900">Deployment Error</h3>
      <p className="text-sm text-zinc-700">
        Check the build and service logs for the first error, fix it in your repository and deploy again. If
        the problem persists, contact support with your repository name and the time of the deployment.
      </p>
    </div>
  );
}

/** 'Failed services: a, b' (or expected ones); nothing when there are none. */
function ServiceNames({ label, names }: { label: string; names: string[] }) {
  if (names.length === 0) return null;
  return (
    <p className="text-sm">
      <span className="text-zinc-500">{label}: </span>
      <span className="font-medium text-zinc-900">{names.join(', ')}</span>
    </p>
  );
}
