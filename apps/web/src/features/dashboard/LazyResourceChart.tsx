import { Suspense } from 'react';
import { Card, Spinner } from '../../components/ui';
import { lazyComponent } from '../../lib/lazyComponent';

// The chart library is most of the dashboard's weight: the rest of the screen shows without waiting for it.
const LoadedResourceChart = lazyComponent(() => import('./ResourceChart'), 'ResourceChart');

/** The dashboard's CPU and memory chart, loaded with recharts on first render. */
export function ResourceChart(props: { workspace: string }) {
  return (
    <Suspense
      fallback={
        <Card className="flex h-48 items-center justify-center">
          <Spinner className="text-accent-600" />
        </Card>
      }
    >
      <LoadedResourceChart {...props} />
    </Suspense>
  );
}
