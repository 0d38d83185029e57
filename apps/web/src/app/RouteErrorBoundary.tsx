import { AlertTriangle, RefreshCw } from 'lucide-react';
import { Component, type ReactNode } from 'react';
import { Button } from '../components/ui';
import { isChunkLoadError } from '../lib/chunkReload';

/** The plain message a person sees instead of a raw error, with one way to try again. */
export function RouteErrorView({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const stale = isChunkLoadError(error);
  return (
    <div
      role="alert"
      className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center px-4 py-16 text-center"
    >
      <AlertTriangle className="h-10 w-10 text-amber-500" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-semibold text-zinc-950">Something went wrong</h1>
      <p className="mt-2 text-zinc-600">
        {stale
          ? 'This page could not be loaded. Slipway may have been updated or the connection dropped.'
          : 'This page ran into a problem and could not be shown.'}
      </p>
      <Button className="mt-6" icon={RefreshCw} onClick={onRetry}>
        Try Again
      </Button>
    </div>
  );
}

interface State {
  error: unknown;
}

/**
 * Around every route's page: an error while loading or rendering the page shows RouteErrorView and
 * keeps the header. Try Again renders the page anew, or reloads when its code failed to load (a
 * lazy import that failed once stays failed until the page is reloaded).
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidCatch(error: unknown) {
    console.error('Route failed to render', error);
  }

  private retry = () => {
    if (isChunkLoadError(this.state.error)) window.location.reload();
    else this.setState({ error: null });
  };

  override render() {
    if (this.state.error) return <RouteErrorView error={this.state.error} onRetry={this.retry} />;
    return this.props.children;
  }
}
