import type { ReactNode } from 'react';
import { CompleteProfilePage } from '../features/auth/CompleteProfilePage';
import { GithubAppPermissionsPage } from '../features/github-app/GithubAppPermissionsPage';
import { LandingPage } from '../features/landing/LandingPage';
import { ContactPage } from '../features/public-pages/ContactPage';
import { DocumentationPage } from '../features/public-pages/DocumentationPage';
import { EnterpriseContactPage } from '../features/public-pages/EnterpriseContactPage';
import { PrivacyPage } from '../features/public-pages/PrivacyPage';
import { StatusPage } from '../features/public-pages/StatusPage';
import { TermsPage } from '../features/public-pages/TermsPage';
import { UpcomingFeaturesPage } from '../features/public-pages/UpcomingFeaturesPage';
import { WaitingListPage } from '../features/waiting-list/WaitingListPage';
import type { Access } from './guards';
import { lazyPage } from './lazyPage';

// The signed-in app's screens load on first visit, so the landing page stays small.
const BillingPage = lazyPage(() => import('../features/billing/BillingPage'), 'BillingPage');
const DashboardPage = lazyPage(() => import('../features/dashboard/DashboardPage'), 'DashboardPage');
const DeployPage = lazyPage(() => import('../features/deploy/DeployPage'), 'DeployPage');
const EnvVariablesPage = lazyPage(
  () => import('../features/env-variables/EnvVariablesPage'),
  'EnvVariablesPage',
);
const InvoicesPage = lazyPage(() => import('../features/invoices/InvoicesPage'), 'InvoicesPage');
const MonitoringPage = lazyPage(() => import('../features/monitoring/MonitoringPage'), 'MonitoringPage');
const PaymentSuccessPage = lazyPage(
  () => import('../features/payment/PaymentSuccessPage'),
  'PaymentSuccessPage',
);
const RepositoryPickerPage = lazyPage(
  () => import('../features/repository-picker/RepositoryPickerPage'),
  'RepositoryPickerPage',
);
const SubscriptionsPage = lazyPage(
  () => import('../features/subscriptions/SubscriptionsPage'),
  'SubscriptionsPage',
);
const WorkspaceSettingsPage = lazyPage(
  () => import('../features/workspace-settings/WorkspaceSettingsPage'),
  'WorkspaceSettingsPage',
);

export interface AppRoute {
  path: string;
  access: Access;
  element: ReactNode;
}

/**
 * Every page inside the main layout (header, footer). To add a screen: export its page from
 * src/features/<area>/ and add one line here with its access level. /admin lives outside this
 * table (its own layout and admin-session guard) — see router.tsx.
 */
export const appRoutes: AppRoute[] = [
  // Public
  { path: '/', access: 'public', element: <LandingPage /> },
  { path: '/documentation', access: 'public', element: <DocumentationPage /> },
  { path: '/status', access: 'public', element: <StatusPage /> },
  { path: '/contact', access: 'public', element: <ContactPage /> },
  { path: '/enterprise-contact', access: 'public', element: <EnterpriseContactPage /> },
  { path: '/upcoming-features', access: 'public', element: <UpcomingFeaturesPage /> },
  { path: '/privacy', access: 'public', element: <PrivacyPage /> },
  { path: '/terms', access: 'public', element: <TermsPage /> },

  // Signed in, whitelisted or not
  { path: '/waiting-list', access: 'signed-in', element: <WaitingListPage /> },
  { path: '/complete-profile', access: 'signed-in', element: <CompleteProfilePage /> },
  { path: '/github-app-permissions', access: 'signed-in', element: <GithubAppPermissionsPage /> },

  // Whitelisted
  { path: '/repository-picker', access: 'whitelisted', element: <RepositoryPickerPage /> },
  { path: '/env-variables/:repoName', access: 'whitelisted', element: <EnvVariablesPage /> },
  { path: '/deploy/:owner/:repo', access: 'whitelisted', element: <DeployPage /> },
  { path: '/billing/:owner/:repo', access: 'whitelisted', element: <BillingPage /> },
  { path: '/payment-success', access: 'whitelisted', element: <PaymentSuccessPage /> },
  { path: '/dashboard', access: 'whitelisted', element: <DashboardPage /> },
  { path: '/monitoring', access: 'whitelisted', element: <MonitoringPage /> },
  { path: '/workspace-settings', access: 'whitelisted', element: <WorkspaceSettingsPage /> },
  { path: '/subscriptions', access: 'whitelisted', element: <SubscriptionsPage /> },
  { path: '/invoices', access: 'whitelisted', element: <InvoicesPage /> },
  { path: '/invoices/:subscriptionId', access: 'whitelisted', element: <InvoicesPage /> },
];
