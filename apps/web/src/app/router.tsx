import { type RouteObject, useRoutes } from 'react-router';
import { importOrReload } from '../lib/chunkReload';
import { lazyComponent } from '../lib/lazyComponent';
import { dataPage } from './dataPage';
import { RootLayout } from './layouts/RootLayout';
import { type PageHandle, pageElement, pageHandle, preloadMatches } from './pageElement';
import { publicRoutes } from './publicRoutes';

const AdminPage = dataPage(() => import('../features/admin/AdminPage'), 'AdminPage');

/** The signed-in screens' own route table (a chunk of its own: a visitor's first JavaScript lacks it). */
const loadSignedInRoutes = () => import('./signedInRoutes');
const SignedInScreens = lazyComponent<'SignedInScreens', object>(loadSignedInRoutes, 'SignedInScreens');
const signedInHandle: PageHandle = {
  preload: async (location) => {
    // A failure here shows when the screens render (their error boundary), not twice.
    const table = await importOrReload('signedInRoutes', loadSignedInRoutes).catch(() => undefined);
    table?.preloadSignedInPage(location);
  },
};

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      ...publicRoutes.map((route) => ({
        path: route.path,
        handle: pageHandle(route.Page),
        element: pageElement(route.Page, route.path),
      })),
      // Any other address: a signed-in screen, or the not-found page (signedInRoutes.tsx).
      { path: '*', handle: signedInHandle, element: pageElement(SignedInScreens) },
    ],
  },
  // The admin panel: its own layout, guarded by the admin session (not the user guards).
  { path: '/admin', handle: pageHandle(AdminPage), element: pageElement(AdminPage) },
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
  preloadMatches(routes, location);
}
