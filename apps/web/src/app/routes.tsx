import type { ReactNode } from 'react';
import { CompleteProfilePage } from '../features/auth/CompleteProfilePage';
import { BillingPage } from '../features/billing/BillingPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { DeployPage } from '../features/deploy/DeployPage';
import { EnvVariablesPage } from '../features/env-variables/EnvVariablesPage';
import { GithubAppPermissionsPage } from '../features/github-app/GithubAppPermissionsPage';
import { InvoicesPage } from '../features/invoices/InvoicesPage';
import { LandingPage } from '../features/landing/LandingPage';
import { MonitoringPage } from '../features/monitoring/MonitoringPage';
import { PaymentSuccessPage } from '../features/payment/PaymentSuccessPage';
import { ContactPage } from '../features/public-pages/ContactPage';
import { DocumentationPage } from '../features/public-pages/DocumentationPage';
import { EnterpriseContactPage } from '../features/public-pages/EnterpriseContactPage';
import { PrivacyPage } from '../features/public-pages/PrivacyPage';
import { StatusPage } from '../features/public-pages/StatusPage';
import { TermsPage } from '../features/public-pages/TermsPage';
import { UpcomingFeaturesPage } from '../features/public-pages/UpcomingFeaturesPage';
import { RepositoryPickerPage } from '../features/repository-picker/RepositoryPickerPage';
import { SubscriptionsPage } from '../features/subscriptions/SubscriptionsPage';
import { WaitingListPage } from '../features/waiting-list/WaitingListPage';
import { WorkspaceSettingsPage } from '../features/workspace-settings/WorkspaceSettingsPage';
import type { Access } from './guards';

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
