import { type ReactNode, Suspense } from 'react';
import { createBrowserRouter } from 'react-router';
import { LoadingView } from '../components/ui';
import type { LazyComponent } from '../lib/lazyComponent';
import { RouteGuard } from './guards';
import { RootLayout } from './layouts/RootLayout';
import { RouteErrorBoundary, RouterErrorElement } from './RouteErrorBoundary';
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

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouterErrorElement />,
    children: [
      ...appRoutes.map((route) => ({
        path: route.path,
        handle: { preload: route.Page.preload } satisfies PageHandle,
        element: <RouteGuard access={route.access}>{pageElement(route.Page, route.path)}</RouteGuard>,
      })),
      {
        path: '*',
        handle: { preload: NotFoundPage.preload } satisfies PageHandle,
        element: pageElement(NotFoundPage),
      },
    ],
  },
  // The admin panel: its own layout, guarded by the admin session (not the user guards).
  {
    path: '/admin',
    errorElement: <RouterErrorElement />,
    handle: { preload: AdminPage.preload } satisfies PageHandle,
    element: pageElement(AdminPage),
  },
]);

// The page the tab opened on starts downloading now, beside the session check, rather than after the
// guard has waited for it.
for (const match of router.state.matches) void (match.route.handle as PageHandle | undefined)?.preload();
