import { MAX_SERVICE_REPLICAS } from '@slipway/contract';
import { Layers } from 'lucide-react';
import { useState } from 'react';
import { setServiceReplicas } from '../../api/serviceReplicas';
import { useWorkspaceDetails } from '../../api/workspaces';
import { Alert, Button, Card, CardBody, CardHeader } from '../../components/ui';
import { fieldClasses } from '../../components/ui/Input';
import { useDeploymentStart } from '../../components/workspace/useDeploymentStart';
import { replicaCounts } from './replicaCounts';

/**
 * The Replicas control: each service with a URL runs 1–10 containers behind its URL, which the proxy balances
 * over. A change redeploys blue/green and opens the deployment's progress; a count that cannot run (a named
 * volume, the VM size) is refused with the reason, shown here.
 */
export function ServiceReplicasCard({ workspace }: { workspace: string }) {
  const details = useWorkspaceDetails(workspace);
  const [wanted, setWanted] = useState<Record<string, number>>({});
  const { starting: busy, error, start } = useDeploymentStart();
  // The service states card above says when the details cannot be read.
  if (details.isPending || details.isError) return null;
  const services = Object.keys(details.data.service_urls).sort();
  if (services.length === 0) return null;
  const running = replicaCounts(
    services,
    details.data.containers.map((c) => c.service),
  );

  const repository = { owner: details.data.repo_owner, repo: details.data.repo_name };
  const apply = (service: string, replicas: number) =>
    start(service, repository, (sessionId) => setServiceReplicas(workspace, service, replicas, sessionId));

  return (
    <Card>
      <CardHeader title="Replicas" icon={Layers} />
      <CardBody className="space-y-3 text-sm">
        {error && <Alert tone="error">{error}</Alert>}
        <ul className="space-y-2" aria-label="Replicas">
          {services.map((service) => {
            const current = Math.max(1, running[service] ?? 1);
            const value = wanted[service] ?? current;
            return (
              <li
                key={service}
                className="flex items-center justify-between gap-3"
                data-testid="service-replicas"
              >
                <label htmlFor={`replicas-${service}`} className="min-w-0 truncate font-medium text-zinc-800">
                  {service}
                </label>
                <div className="flex items-center gap-2">
                  <input
                    id={`replicas-${service}`}
                    type="number"
                    min={1}
                    max={MAX_SERVICE_REPLICAS}
                    step={1}
                    value={value}
                    onChange={(event) => setWanted({ ...wanted, [service]: Number(event.target.value) || 1 })}
                    className={`${fieldClasses(false)} w-20`}
                    aria-describedby="replicas-hint"
                  />
                  <Button
                    size="sm"
                    variant="secondary"
                    loading={busy === service}
                    disabled={busy !== null || value === current || value < 1 || value > MAX_SERVICE_REPLICAS}
                    onClick={() => void apply(service, value)}
                  >
                    Apply
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
        <p id="replicas-hint" className="text-xs text-zinc-500">
          1–{MAX_SERVICE_REPLICAS} containers per service, balanced behind its URL; a change redeploys without
          downtime. A service that keeps data in a named volume runs one.
        </p>
      </CardBody>
    </Card>
  );
}
