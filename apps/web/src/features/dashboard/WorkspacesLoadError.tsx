import { RefreshCw } from 'lucide-react';
import { Button } from '../../components/ui';

/** In the dashboard header instead of the workspace picker when the list failed to load: why, and Retry. */
export function WorkspacesLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="flex items-center gap-2 text-sm text-red-700" role="alert">
      <span>{message}</span>
      <Button size="sm" variant="secondary" onClick={onRetry} icon={RefreshCw}>
        Retry
      </Button>
    </div>
  );
}
