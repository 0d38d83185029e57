import { createBrowserRouter } from 'react-router';
import { AdminPage } from '../features/admin/AdminPage';
import { NotFoundPage } from '../features/public-pages/NotFoundPage';
import { RouteGuard } from './guards';
import { RootLayout } from './layouts/RootLayout';
import { appRoutes } from './routes';

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    children: [
      ...appRoutes.map((route) => ({
        path: route.path,
        element: <RouteGuard access={route.access}>{route.element}</RouteGuard>,
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  // The admin panel: its own layout, guarded by the admin session (not the user guards).
  { path: '/admin', element: <AdminPage /> },
]);
