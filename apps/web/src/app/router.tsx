import { Suspense } from 'react';
import { createBrowserRouter } from 'react-router';
import { LoadingView } from '../components/ui';
import { NotFoundPage } from '../features/public-pages/NotFoundPage';
import { RouteGuard } from './guards';
import { RootLayout } from './layouts/RootLayout';
import { lazyPage } from './lazyPage';
import { RouteErrorBoundary, RouterErrorElement } from './RouteErrorBoundary';
import { appRoutes } from './routes';

const AdminPage = lazyPage(() => import('../features/admin/AdminPage'), 'AdminPage');

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouterErrorElement />,
    children: [
      ...appRoutes.map((route) => ({
        path: route.path,
        element: (
          <RouteGuard access={route.access}>
            <RouteErrorBoundary key={route.path}>
              <Suspense fallback={<LoadingView />}>{route.element}</Suspense>
            </RouteErrorBoundary>
          </RouteGuard>
        ),
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  // The admin panel: its own layout, guarded by the admin session (not the user guards).
  {
    path: '/admin',
    errorElement: <RouterErrorElement />,
    element: (
      <RouteErrorBoundary>
        <Suspense fallback={<LoadingView />}>
          <AdminPage />
        </Suspense>
      </RouteErrorBoundary>
    ),
  },
]);
