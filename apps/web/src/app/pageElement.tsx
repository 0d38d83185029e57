import { type ReactNode, Suspense } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { LoadingView } from '../components/ui';
import type { LazyComponent } from '../lib/lazyComponent';
import { RouteErrorBoundary } from './RouteErrorBoundary';

/** What a route carries for preloading: the code of the page the tab opens on, fetched at start-up. */
export interface PageHandle {
  /** Never rejects: a chunk that fails to load is reported when the page renders. */
  preload: (location: Location) => Promise<void>;
}

/** A lazy page behind its error boundary (a failed load or render keeps the layout) and loading view. */
export function pageElement(Page: LazyComponent<object>, key?: string): ReactNode {
  return (
    <RouteErrorBoundary key={key}>
      <Suspense fallback={<LoadingView />}>
        <Page />
      </Suspense>
    </RouteErrorBoundary>
  );
}

export const pageHandle = (Page: LazyComponent<object>) =>
  ({ preload: () => Page.preload() }) satisfies PageHandle;

/** Starts downloading the page of `location` in a route table (its handles' preload). */
export function preloadMatches(routes: RouteObject[], location: Location): void {
  for (const match of matchRoutes(routes, location) ?? []) {
    void (match.route.handle as PageHandle | undefined)?.preload(location);
  }
}
