import { Activity } from 'lucide-react';
import { useWorkspaceDetails } from '../../api/workspaces';
import { ServiceStateList } from '../../components/ServiceStateList';
import { Card, CardBody, CardHeader, Spinner } from '../../components/ui';

/** Each service of the workspace with its state now: healthy, running, completed, exited (code), OOM-killed… */
export function ServiceStatesCard({ workspace }: { workspace: string }) {
  const details = useWorkspaceDetails(workspace);
  return (
    <Card>
      <CardHeader title="Service States" icon={Activity} />
      <CardBody className="text-sm">
        {details.isPending ? (
          <Spinner size="sm" className="text-accent-600" />
        ) : details.isError ? (
          <p className="text-zinc-500">The services' states could not be read.</p>
        ) : details.data.service_states.length === 0 ? (
          <p className="text-zinc-500">No containers are running.</p>
        ) : (
          <ServiceStateList services={details.data.service_states} />
        )}
      </CardBody>
    </Card>
  );
}
