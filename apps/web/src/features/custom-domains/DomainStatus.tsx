import type { CustomDomain } from '@slipway/contract';
import { StatusBadge } from '../../components/StatusBadge';
import { certificateText, domainStatus, retryAfterText } from './domainView';

/** The status badge, and under it why the domain is not Active (and when to retry), or its certificate. */
export function DomainStatus({ domain }: { domain: CustomDomain }) {
  const retry = retryAfterText(domain);
  const certificate = domain.status === 'active' ? certificateText(domain) : undefined;
  return (
    <StatusBadge status={domainStatus(domain)} cause={domain.cause} width="sm">
      {retry && <p className="text-xs font-medium text-zinc-600">{retry}</p>}
      {certificate && <p className="text-xs text-zinc-500">{certificate}</p>}
    </StatusBadge>
  );
}
