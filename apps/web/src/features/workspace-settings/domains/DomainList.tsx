import { Globe } from 'lucide-react';
import { useCustomDomains } from '../../../api/customDomains';
import { EmptyState } from '../../../components/EmptyState';
import { Spinner } from '../../../components/ui';
import { SettingsLoadError } from '../SettingsLoadError';
import { DomainTable } from './DomainTable';
import { domainsPollInterval } from './domainView';

/** The workspace's domains, read again every few seconds while one is on its way to Active. */
export function DomainList({ workspace }: { workspace: string }) {
  const domains = useCustomDomains(workspace, { refetchInterval: domainsPollInterval });

  if (domains.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner className="text-accent-600" />
      </div>
    );
  }
  if (domains.isError) return <SettingsLoadError message={domains.error.message} />;
  if (domains.data.length === 0) {
    return (
      <EmptyState
        icon={Globe}
        title="No custom domains"
        description="Add one above: it is served over HTTPS once its DNS records check out."
      />
    );
  }
  return <DomainTable workspace={workspace} domains={domains.data} />;
}
