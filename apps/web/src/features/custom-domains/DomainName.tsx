import type { CustomDomain } from '@slipway/contract';
import { ExternalLink } from '../../components/ExternalLink';
import { wwwCounterpart } from './domainForm';
import { asciiForm } from './domainView';

/** The name as people read it, its ASCII form for an IDN, its www redirect, and its link once Active. */
export function DomainName({ domain }: { domain: CustomDomain }) {
  const ascii = asciiForm(domain);
  return (
    <div className="min-w-0 space-y-0.5">
      <p className="font-medium break-all text-zinc-900">{domain.unicode_domain}</p>
      {ascii && <p className="font-mono text-xs break-all text-zinc-500">{ascii}</p>}
      {domain.redirect_www && (
        <p className="text-xs text-zinc-500">{wwwCounterpart(domain.unicode_domain)} redirects here</p>
      )}
      {domain.status === 'active' && (
        <ExternalLink href={domain.url} className="text-xs font-medium break-all text-accent-700">
          {domain.url}
        </ExternalLink>
      )}
    </div>
  );
}
