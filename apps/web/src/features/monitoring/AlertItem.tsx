import type { AlertSeverity, AlertView } from '@slipway/contract';
import { Button, cn } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';

const SEVERITY: Record<AlertSeverity, string> = {
  critical: 'border-red-300 bg-red-50',
  error: 'border-orange-300 bg-orange-50',
  warning: 'border-amber-300 bg-amber-50',
  info: 'border-sky-300 bg-sky-50',
};
const SEVERITY_BADGE: Record<AlertSeverity, string> = {
  critical: 'bg-red-600 text-white',
  error: 'bg-orange-500 text-white',
  warning: 'bg-amber-400 text-amber-950',
  info: 'bg-sky-500 text-white',
};

/** One alert; title and description are shown as text. */
export function AlertItem({
  alert,
  actions,
  running,
  onAct,
}: {
  alert: AlertView;
  actions: boolean;
  running: boolean;
  onAct?: (alert: AlertView, action: 'acknowledge' | 'resolve') => void;
}) {
  const severity = SEVERITY[alert.severity] ? alert.severity : 'info';
  return (
    <li className={cn('rounded-lg border p-3', SEVERITY[severity])} data-testid="alert-item">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <div className="flex items-center gap-2">
            <span
              className={cn(
                'rounded px-1.5 py-0.5 text-[10px] font-bold uppercase',
                SEVERITY_BADGE[severity],
              )}
            >
              {severity}
            </span>
            <p className="font-medium text-zinc-900">{alert.title}</p>
          </div>
          <p className="mt-1 text-sm break-words whitespace-pre-wrap text-zinc-700">{alert.description}</p>
          <p className="mt-1 text-xs text-zinc-500">
            {formatDateTime(alert.triggered_at)}
            {alert.state !== 'active' && ' · resolved'}
            {alert.acknowledged_at &&
              ` · acknowledged${alert.acknowledged_by ? ` by ${alert.acknowledged_by}` : ''} ${formatDateTime(alert.acknowledged_at)}`}
          </p>
        </div>
        {actions && alert.state === 'active' && (
          <div className="flex shrink-0 gap-2">
            {!alert.acknowledged_at && (
              <Button
                size="sm"
                variant="secondary"
                disabled={running}
                onClick={() => onAct?.(alert, 'acknowledge')}
              >
                {running ? 'Processing...' : 'Acknowledge'}
              </Button>
            )}
            <Button size="sm" disabled={running} onClick={() => onAct?.(alert, 'resolve')}>
              {running ? 'Processing...' : 'Resolve'}
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}
