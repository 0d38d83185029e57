import type { DeployJobMetadata } from '@slipway/contract';
import { NO_PORTS_MESSAGE } from '@slipway/contract';
import { AlertTriangle } from 'lucide-react';
import type { ReactNode } from 'react';
import { ServiceStateList } from '../../components/ServiceStateList';

/** What went wrong, from GET /api/deployment/job/{id}: health check, port discovery, or a generic error. */
export function FailureDetails({ job }: { job: DeployJobMetadata | null }) {
  if (job?.health_check_failed) {
    return (
      <FailureSection title="Health Check Failed" reason={job.failure_reason} className="space-y-4">
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
      </FailureSection>
    );
  }
  if (job?.port_discovery_failed) {
    return (
      <FailureSection title="No Ports Found" reason={job.failure_reason} className="space-y-3">
        <ServiceNames label="Expected services" names={job.expected_services} />
        <p className="flex gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" /> {NO_PORTS_MESSAGE}
        </p>
      </FailureSection>
    );
  }
  return (
    <FailureSection title="Deployment Error" className="space-y-2">
      <p className="text-sm text-zinc-700">
        Check the build and service logs for the first error, fix it in your repository and deploy again. If
        the problem persists, contact support with your repository name and the time of the deployment.
      </p>
    </FailureSection>
  );
}

/** One kind of failure: its title, the server's reason when it gave one, and what else it knows. */
function FailureSection({
  title,
  reason,
  className,
  children,
}: {
  title: string;
  reason?: string | null;
  className: string;
  children: ReactNode;
}) {
  return (
    <div className={className} data-testid="failure-details">
      <h3 className="font-semibold text-zinc-900">{title}</h3>
      {reason && <p className="text-sm text-zinc-700">{reason}</p>}
      {children}
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
