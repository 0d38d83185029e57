import { type ReactNode, Suspense } from 'react';
import { matchRoutes, type RouteObject, useRoutes } from 'react-router';
import { LoadingView } from '../components/ui';
import type { LazyComponent } from '../lib/lazyComponent';
import { RouteGuard } from './guards';
import { UserHeader } from './header/lazyUserHeader';
import { RootLayout } from './layouts/RootLayout';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { AdminPage, appRoutes, NotFoundPage } from './routes';

interface PageHandle {
  preload: () => Promise<void>;
}

/** A lazy page behind its error boundary (a failed load or render keeps the layout) and loading view. */
function pageElement(Page: LazyComponent<object>, key?: string): ReactNode {
  return (
    <RouteErrorBoundary key={key}>
      <Suspense fallback={<LoadingView />}>
        <Page />
      </Suspense>
    </RouteErrorBoundary>
  );
}

const handle = (Page: LazyComponent<object>) => ({ preload: Page.preload }) satisfies PageHandle;

/** A signed-in screen shows the signed-in header: both download beside the session check. */
const signedInHandle = (Page: LazyComponent<object>) =>
  ({
    preload: async () => {
      await Promise.all([Page.preload(), UserHeader.preload()]);
    },
  }) satisfies PageHandle;

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      ...appRoutes.map((route) => ({
        path: route.path,
        handle: route.access === 'public' ? handle(route.Page) : signedInHandle(route.Page),
        element: <RouteGuard access={route.access}>{pageElement(route.Page, route.path)}</RouteGuard>,
      })),
      { path: '*', handle: handle(NotFoundPage), element: pageElement(NotFoundPage) },
    ],
  },
  // The admin panel: its own layout, guarded by the admin session (not the user guards).
  { path: '/admin', handle: handle(AdminPage), element: pageElement(AdminPage) },
];

/**
 * The screens for the current address. React Router's declarative mode (inside <BrowserRouter>): no
 * screen uses loaders or actions, and the data router would add ~17 kB gzip to every first visit.
 */
export function AppRoutes() {
  return useRoutes(routes);
}

/** Starts downloading the page the tab opened on, beside the session check, rather than after the guard. */
export function preloadOpenedPage(location: Location) {
  for (const match of matchRoutes(routes, location) ?? []) {
    void (match.route.handle as PageHandle | undefined)?.preload();
  }
}
