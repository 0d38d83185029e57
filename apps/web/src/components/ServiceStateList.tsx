import type { ServiceState } from '@slipway/contract';
import { isGoodState, serviceStateText } from '../lib/serviceStateText';
import { Badge } from './ui';

/** Every service of the deployment with its state, its URL when it is public, and why it failed. */
export function ServiceStateList({ services }: { services: ServiceState[] }) {
  if (services.length === 0) return null;
  return (
    <ul className="space-y-2 text-sm" data-testid="service-states">
      {services.map((service) => (
        <li key={service.service} className="flex flex-wrap items-center justify-between gap-2">
          <span className="min-w-0 truncate">
            <span className="font-medium text-zinc-900">{service.service}</span>
            {service.url && <span className="ml-2 text-zinc-500">{service.url}</span>}
            {service.message && <span className="block text-zinc-600">{service.message}</span>}
          </span>
          <Badge
            tone={
              isGoodState(service.state) ? 'success' : service.state === 'starting' ? 'neutral' : 'danger'
            }
            dot
          >
            {serviceStateText(service)}
          </Badge>
        </li>
      ))}
    </ul>
  );
}
