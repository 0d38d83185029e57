import { useQueryClient } from '@tanstack/react-query';
import { HeartPulse, RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { httpStatus, serverDetail } from '../../api/errors';
import {
  deploySystemHealth,
  useSystemHealthContainers,
  useSystemHealthStatus,
  useSystemInfo,
  useVmHealth,
} from '../../api/monitoring';
import { Alert, Badge, Button, Card, CardBody, CardHeader, Spinner } from '../../components/ui';
import { ContainersSection, SystemInfoSection, VmHealthSection } from './SystemHealthDetails';

/** Spec: system health refresh is debounced by 150 ms. */
const REFRESH_DEBOUNCE_MS = 150;
/** The spec's text for a workspace without a VM: there is nothing to deploy onto yet. */
const NO_VM_MESSAGE = 'No VM configured for this workspace';

export function SystemHealthPanel({ workspace }: { workspace: string }) {
  const queryClient = useQueryClient();
  const [deploying, setDeploying] = useState(false);
  const [deployError, setDeployError] = useState<string | null>(null);
  const debounce = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(debounce.current), []);

  const status = useSystemHealthStatus(workspace, { retry: false });
  const deployed = status.data?.system_health_deployed === true;
  const info = useSystemInfo(workspace, deployed);
  const vm = useVmHealth(workspace, deployed);
  const containers = useSystemHealthContainers(workspace, deployed);

  const refresh = () => {
    window.clearTimeout(debounce.current);
    debounce.current = window.setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: ['monitoring', workspace] });
    }, REFRESH_DEBOUNCE_MS);
  };

  const deploy = async () => {
    setDeploying(true);
    setDeployError(null);
    try {
      await deploySystemHealth(workspace);
      await queryClient.invalidateQueries({ queryKey: ['monitoring', workspace] });
    } catch (error) {
      setDeployError(serverDetail(error) ?? 'Failed to deploy system health monitoring');
    } finally {
      setDeploying(false);
    }
  };

  const loading = status.isLoading || (deployed && (info.isLoading || vm.isLoading || containers.isLoading));
  const failed = status.isError || (deployed && (info.isError || vm.isError || containers.isError));
  const failure =
    status.isError && httpStatus(status.error) === 404
      ? NO_VM_MESSAGE
      : status.isError
        ? 'Failed to fetch system health status'
        : (serverDetail(info.error ?? vm.error ?? containers.error) ?? 'The metrics could not be read.');

  return (
    <Card>
      <CardHeader
        title="System Health"
        icon={HeartPulse}
        action={
          <div className="flex items-center gap-2">
            {deployed && (
              <Badge tone="success" dot>
                Active
              </Badge>
            )}
            <Button size="sm" variant="ghost" onClick={refresh} aria-label="Refresh system health">
              <RefreshCw className="h-4 w-4" aria-hidden="true" />
            </Button>
          </div>
        }
      />
      <CardBody className="space-y-5">
        {loading ? (
          <div className="flex items-center justify-center gap-2 py-10 text-sm text-zinc-500" role="status">
            <Spinner size="sm" /> Loading system health...
          </div>
        ) : failed ? (
          <div className="flex flex-col items-center py-8 text-center">
            <p className="font-medium text-zinc-900">Error loading System Health</p>
            <p className="mt-1 text-sm text-zinc-600">{failure}</p>
            <Button size="sm" variant="secondary" className="mt-4" onClick={refresh}>
              Retry
            </Button>
          </div>
        ) : !deployed ? (
          <div className="flex flex-col items-center py-8 text-center">
            <p className="font-medium text-zinc-900">System health monitoring is not deployed</p>
            <p className="mt-1 max-w-md text-sm text-zinc-600">
              {status.data?.message ||
                'Deploy a small read-only container on the VM to see CPU, memory, network and container metrics.'}
            </p>
            {deployError && (
              <Alert tone="error" className="mt-4 text-left">
                {deployError}
              </Alert>
            )}
            {status.data?.message !== NO_VM_MESSAGE && (
              <Button className="mt-4" onClick={() => void deploy()} loading={deploying}>
                {deploying ? 'Deploying...' : 'Deploy System Health'}
              </Button>
            )}
          </div>
        ) : (
          <>
            {info.data && <SystemInfoSection info={info.data} />}
            {vm.data && <VmHealthSection vm={vm.data} />}
            {containers.data && <ContainersSection containers={containers.data.containers} />}
          </>
        )}
      </CardBody>
    </Card>
  );
}
