import { Suspense } from 'react';
import { createBrowserRouter } from 'react-router';
import { LoadingView } from '../components/ui';
import { NotFoundPage } from '../features/public-pages/NotFoundPage';
import { RouteGuard } from './guards';
import { RootLayout } from './layouts/RootLayout';
import { lazyPage } from './lazyPage';
import { appRoutes } from './routes';

const AdminPage = lazyPage(() => import('../features/admin/AdminPage'), 'AdminPage');

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    children: [
      ...appRoutes.map((route) => ({
        path: route.path,
        element: (
          <RouteGuard access={route.access}>
            <Suspense fallback={<LoadingView />}>{route.element}</Suspense>
          </RouteGuard>
        ),
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  // The admin panel: its own layout, guarded by the admin session (not the user guards).
  {
    path: '/admin',
    element: (
      <Suspense fallback={<LoadingView />}>
        <AdminPage />
      </Suspense>
    ),
  },
]);
