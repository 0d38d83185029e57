import { type CustomDomain, DOMAIN_STATUS_LABELS } from '@slipway/contract';
import { Loader2 } from 'lucide-react';
import { Badge } from '../../../components/ui';
import { certificateText, retryAfterText, STATUS_TONES } from './domainView';

/** The status badge, and under it why the domain is not Active (and when to retry), or its certificate. */
export function DomainStatus({ domain }: { domain: CustomDomain }) {
  const settling = domain.status === 'verified' || domain.status === 'issuing';
  const retry = retryAfterText(domain);
  const certificate = domain.status === 'active' ? certificateText(domain) : undefined;
  return (
    <div className="max-w-sm space-y-1">
      <Badge
        tone={STATUS_TONES[domain.status]}
        dot={!settling}
        icon={settling ? <Loader2 className="h-3 w-3 animate-spin" aria-hidden="true" /> : undefined}
      >
        {DOMAIN_STATUS_LABELS[domain.status]}
      </Badge>
      {domain.cause && <p className="text-xs text-zinc-700">{domain.cause}</p>}
      {retry && <p className="text-xs font-medium text-zinc-600">{retry}</p>}
      {certificate && <p className="text-xs text-zinc-500">{certificate}</p>}
    </div>
  );
}
