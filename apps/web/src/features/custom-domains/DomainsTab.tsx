import { Globe } from 'lucide-react';
import { useCustomDomains } from '../../api/customDomains';
import { SettingsList } from '../../components/settings/SettingsList';
import type { SettingsTab } from '../../components/settings/settingsTab';
import { AddDomainForm } from './AddDomainForm';
import { DomainTable } from './DomainTable';
import { domainsPollInterval } from './domainView';

const NO_DOMAINS = {
  icon: Globe,
  title: 'No custom domains',
  description: 'Add one above: it is served over HTTPS once its DNS records check out.',
};

/**
 * Workspace Settings → Domains: a service at its owner's own domain, proven by DNS, with a certificate. The list
 * is read again every few seconds while a domain is on its way to Active.
 */
export function DomainsTab({ workspace }: { workspace: string }) {
  const domains = useCustomDomains(workspace, { refetchInterval: domainsPollInterval });
  return (
    <div className="space-y-6">
      <AddDomainForm workspace={workspace} />
      <SettingsList
        title="Your domains"
        description="Pending DNS → Verified → Issuing certificate → Active. A domain is served only once its DNS proves it is yours."
        query={domains}
        empty={NO_DOMAINS}
      >
        {(list) => <DomainTable workspace={workspace} domains={list} />}
      </SettingsList>
    </div>
  );
}

export const domainsTab: SettingsTab = { id: 'domains', label: 'Domains', icon: Globe, Panel: DomainsTab };
