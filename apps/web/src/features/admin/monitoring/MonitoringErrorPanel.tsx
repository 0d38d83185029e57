import { AlertTriangle, RefreshCw, RotateCw } from 'lucide-react';
import { Button, Card } from '../../../components/ui';

/** 'Monitoring Error': what failed, what to check, Retry and Refresh Page. */
export function MonitoringErrorPanel({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Card role="alert" className="border-red-200 bg-red-50 p-6">
      <div className="flex items-start gap-3">
        <AlertTriangle className="mt-0.5 h-6 w-6 shrink-0 text-red-600" aria-hidden="true" />
        <div className="min-w-0 space-y-3">
          <h3 className="text-lg font-semibold text-red-900">Monitoring Error</h3>
          <p className="text-sm break-words text-red-800">{message}</p>
          <div className="text-sm text-red-900">
            <p className="font-medium">Troubleshooting</p>
            <ul className="mt-1 list-disc space-y-1 pl-5 text-red-800">
              <li>Check that your admin session is still valid (sign in again if it expired).</li>
              <li>
                Check that the Docker Engine (or cAdvisor, when CADVISOR_URL is set) is running and reachable.
              </li>
              <li>Check that the server can read the Docker socket.</li>
              <li>Look at the backend log in the System Logs tab for the underlying error.</li>
            </ul>
          </div>
          <div className="flex flex-wrap gap-2 pt-1">
            <Button size="sm" icon={RotateCw} onClick={onRetry}>
              Retry
            </Button>
            <Button size="sm" variant="secondary" icon={RefreshCw} onClick={() => window.location.reload()}>
              Refresh Page
            </Button>
          </div>
        </div>
      </div>
    </Card>
  );
}
