import type { WorkspaceSummary } from '@slipway/contract';
import { findVmSize } from '@slipway/contract';
import { AlertTriangle, Cpu, ExternalLink, Server, Trash2, Wrench } from 'lucide-react';
import { Badge, Button, Card, CardBody, CardHeader } from '../../components/ui';
import { formatDate, formatDateTime } from '../../lib/dates';
import { priceText } from '../../lib/nodePrice';

/** Service URLs as Visit links, the created date and the Docker image. */
export function WorkspaceStatusCard({ workspace }: { workspace: WorkspaceSummary }) {
  const urls = Object.entries(workspace.service_urls ?? {});
  return (
    <Card>
      <CardHeader
        title="Workspace Status"
        icon={Server}
        action={
          workspace.status ? (
            <Badge tone={workspace.status === 'live' ? 'success' : 'neutral'} dot>
              {workspace.status}
            </Badge>
          ) : undefined
        }
      />
      <CardBody className="space-y-4 text-sm">
        <div>
          <p className="font-medium text-zinc-800">Services</p>
          {urls.length === 0 ? (
            <p className="mt-1 text-zinc-500">No service URLs yet.</p>
          ) : (
            <ul className="mt-2 space-y-2">
              {urls.map(([service, url]) => (
                <li key={service} className="flex items-center justify-between gap-3">
                  <span className="min-w-0 truncate">
                    <span className="font-medium text-zinc-900">{service}</span>{' '}
                    <span className="text-zinc-500">{url}</span>
                  </span>
                  <a
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex shrink-0 items-center gap-1 font-medium text-accent-700 hover:underline"
                  >
                    Visit <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="text-zinc-500">Created</dt>
          <dd className="text-zinc-900">{formatDate(workspace.created_at)}</dd>
          <dt className="text-zinc-500">Docker image</dt>
          <dd className="break-all font-mono text-xs text-zinc-900">{workspace.docker_image_name || '—'}</dd>
        </dl>
      </CardBody>
    </Card>
  );
}

export function WorkspaceActionsCard({ busy, onDelete }: { busy: boolean; onDelete: () => void }) {
  return (
    <Card>
      <CardHeader title="Actions" icon={Wrench} />
      <CardBody>
        <Button variant="danger" onClick={onDelete} loading={busy} icon={Trash2} className="w-full">
          {busy ? 'Deleting...' : 'Delete Workspace'}
        </Button>
        <p className="mt-2 text-xs text-zinc-500">Stops its containers and removes the workspace.</p>
      </CardBody>
    </Card>
  );
}

/** The log watcher's last error line, as text. */
export function LatestErrorCard({ workspace }: { workspace: WorkspaceSummary }) {
  const { last_error: lastError, last_error_time: lastErrorTime } = workspace.log_watcher ?? {};
  return (
    <Card>
      <CardHeader title="Latest Error" icon={AlertTriangle} />
      <CardBody>
        {lastError ? (
          <div className="rounded-lg border border-red-200 bg-red-50 p-3">
            <pre className="max-h-40 overflow-auto font-mono text-xs break-words whitespace-pre-wrap text-red-800">
              {lastError}
            </pre>
            {lastErrorTime && <p className="mt-2 text-xs text-red-700">{formatDateTime(lastErrorTime)}</p>}
          </div>
        ) : (
          <p className="text-sm text-zinc-500">No errors recorded.</p>
        )}
      </CardBody>
    </Card>
  );
}

/** The VM the workspace runs on: size, specs and monthly price from the one catalogue. */
export function VmConfigPanel({ workspace }: { workspace: WorkspaceSummary }) {
  const vmSizeId = workspace.vm_config?.vm_size ?? '';
  const size = findVmSize(vmSizeId);
  return (
    <Card className="h-full">
      <CardHeader title="VM Configuration" icon={Cpu} />
      <CardBody>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-zinc-500">Size</dt>
          <dd className="font-medium text-zinc-900">
            {size ? `${size.name} (${size.id})` : vmSizeId || '—'}
          </dd>
          {size && (
            <>
              <dt className="text-zinc-500">Specs</dt>
              <dd className="text-zinc-900">{size.specs}</dd>
              <dt className="text-zinc-500">Nodes</dt>
              <dd className="text-zinc-900">{workspace.node_count}</dd>
              <dt className="text-zinc-500">Price</dt>
              <dd className="text-zinc-900">{priceText(size, workspace.node_count)}</dd>
            </>
          )}
          <dt className="text-zinc-500">Repository</dt>
          <dd className="break-all text-zinc-900">
            {workspace.repo_owner && workspace.repo_name
              ? `${workspace.repo_owner}/${workspace.repo_name}`
              : workspace.repo_url || '—'}
          </dd>
          <dt className="text-zinc-500">Branch</dt>
          <dd className="font-mono text-xs text-zinc-900">{workspace.branch || '—'}</dd>
        </dl>
      </CardBody>
    </Card>
  );
}
