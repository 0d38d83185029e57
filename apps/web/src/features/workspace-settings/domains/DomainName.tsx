import type { CustomDomain } from '@slipway/contract';
import { ExternalLink } from 'lucide-react';
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
        <a
          href={domain.url}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-xs font-medium break-all text-accent-700 hover:underline"
        >
          {domain.url}
          <ExternalLink className="h-3 w-3 shrink-0" aria-hidden="true" />
        </a>
      )}
    </div>
  );
}
