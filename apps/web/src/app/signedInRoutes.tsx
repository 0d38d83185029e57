import { type RouteObject, useRoutes } from 'react-router';
import { lazyComponent } from '../lib/lazyComponent';
import type { AppRoute } from './appRoute';
import { dataPage } from './dataPage';
import { RouteGuard } from './guards';
import { UserHeader } from './header/lazyUserHeader';
import { type PageHandle, pageElement, pageHandle, preloadMatches } from './pageElement';

const AccountSettingsPage = dataPage(
  () => import('../features/account-settings/AccountSettingsPage'),
  'AccountSettingsPage',
);
const BillingPage = dataPage(() => import('../features/billing/BillingPage'), 'BillingPage');
const CompleteProfilePage = dataPage(
  () => import('../features/auth/CompleteProfilePage'),
  'CompleteProfilePage',
);
const DashboardPage = dataPage(() => import('../features/dashboard/DashboardPage'), 'DashboardPage');
const DeployPage = dataPage(() => import('../features/deploy/DeployPage'), 'DeployPage');
const EnvVariablesPage = dataPage(
  () => import('../features/env-variables/EnvVariablesPage'),
  'EnvVariablesPage',
);
const GithubAppPermissionsPage = dataPage(
  () => import('../features/github-app/GithubAppPermissionsPage'),
  'GithubAppPermissionsPage',
);
const InvoicesPage = dataPage(() => import('../features/invoices/InvoicesPage'), 'InvoicesPage');
const MonitoringPage = dataPage(() => import('../features/monitoring/MonitoringPage'), 'MonitoringPage');
const PaymentSuccessPage = dataPage(
  () => import('../features/payment/PaymentSuccessPage'),
  'PaymentSuccessPage',
);
const RepositoryPickerPage = dataPage(
  () => import('../features/repository-picker/RepositoryPickerPage'),
  'RepositoryPickerPage',
);
const SubscriptionsPage = dataPage(
  () => import('../features/subscriptions/SubscriptionsPage'),
  'SubscriptionsPage',
);
const WaitingListPage = dataPage(() => import('../features/waiting-list/WaitingListPage'), 'WaitingListPage');
const WorkspaceSettingsScreen = dataPage(
  () => import('./WorkspaceSettingsScreen'),
  'WorkspaceSettingsScreen',
);
const NotFoundPage = lazyComponent(() => import('../features/public-pages/NotFoundPage'), 'NotFoundPage');

/**
 * Every signed-in page inside the main layout, with its access level. To add a screen: export its page
 * from src/features/<area>/ (or, when it brings several areas together, compose it in app/ as
 * WorkspaceSettingsScreen does), declare it above with dataPage (or lazyComponent when it reads no query and
 * opens no dialog) and add one line here. This table is its own chunk, fetched with the first signed-in
 * screen (or any address the public table does not know); /admin lives in router.tsx.
 */
export const signedInRoutes: AppRoute[] = [
  // Signed in, whitelisted or not
  { path: '/waiting-list', access: 'signed-in', Page: WaitingListPage },
  { path: '/complete-profile', access: 'signed-in', Page: CompleteProfilePage },
  { path: '/github-app-permissions', access: 'signed-in', Page: GithubAppPermissionsPage },

  // Whitelisted
  { path: '/repository-picker', access: 'whitelisted', Page: RepositoryPickerPage },
  { path: '/env-variables/:repoName', access: 'whitelisted', Page: EnvVariablesPage },
  { path: '/deploy/:owner/:repo', access: 'whitelisted', Page: DeployPage },
  { path: '/billing/:owner/:repo', access: 'whitelisted', Page: BillingPage },
  { path: '/payment-success', access: 'whitelisted', Page: PaymentSuccessPage },
  { path: '/dashboard', access: 'whitelisted', Page: DashboardPage },
  { path: '/monitoring', access: 'whitelisted', Page: MonitoringPage },
  { path: '/workspace-settings', access: 'whitelisted', Page: WorkspaceSettingsScreen },
  { path: '/subscriptions', access: 'whitelisted', Page: SubscriptionsPage },
  { path: '/invoices', access: 'whitelisted', Page: InvoicesPage },
  { path: '/invoices/:subscriptionId', access: 'whitelisted', Page: InvoicesPage },
  { path: '/account-settings', access: 'whitelisted', Page: AccountSettingsPage },
];

/** A signed-in screen shows the signed-in header: both download beside the session check. */
const signedInHandle = (Page: AppRoute['Page']) =>
  ({
    preload: async () => {
      await Promise.all([Page.preload(), UserHeader.preload()]);
    },
  }) satisfies PageHandle;

const routes: RouteObject[] = [
  ...signedInRoutes.map((route) => ({
    path: route.path,
    handle: signedInHandle(route.Page),
    element: <RouteGuard access={route.access}>{pageElement(route.Page, route.path)}</RouteGuard>,
  })),
  { path: '*', handle: pageHandle(NotFoundPage), element: pageElement(NotFoundPage) },
];

/** The signed-in screens (and the not-found page), below the main layout's catch-all route. */
export function SignedInScreens() {
  return useRoutes(routes);
}

/** Starts downloading the signed-in page the tab opened on. */
export function preloadSignedInPage(location: Location) {
  preloadMatches(routes, location);
}
