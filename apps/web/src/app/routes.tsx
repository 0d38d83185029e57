import type { ComponentType } from 'react';
import { type LazyComponent, lazyComponent } from '../lib/lazyComponent';
import type { Access } from './guards';

// Every screen is its own chunk, fetched on first visit (or at start-up for the screen the page opens
// on): the first JavaScript a visitor loads holds the shell (header, footer, router), not the app.

/**
 * A screen with server data: its chunk and the page providers (query cache, dialogs) load side by side,
 * so the landing page's first JavaScript carries neither. Pages that read no query and open no dialog
 * (the landing, the public pages) use lazyComponent alone.
 */
function dataPage<Name extends string>(
  load: () => Promise<{ [Key in Name]: ComponentType<object> }>,
  name: Name,
): LazyComponent<object> {
  return lazyComponent(async () => {
    const [page, providers] = await Promise.all([load(), import('./PageProviders')]);
    return { [name]: providers.withPageProviders(page[name]) } as { [Key in Name]: ComponentType<object> };
  }, name);
}

const BillingPage = dataPage(() => import('../features/billing/BillingPage'), 'BillingPage');
const CompleteProfilePage = dataPage(
  () => import('../features/auth/CompleteProfilePage'),
  'CompleteProfilePage',
);
const ContactPage = lazyComponent(() => import('../features/public-pages/ContactPage'), 'ContactPage');
const DashboardPage = dataPage(() => import('../features/dashboard/DashboardPage'), 'DashboardPage');
const DeployPage = dataPage(() => import('../features/deploy/DeployPage'), 'DeployPage');
const DocumentationPage = lazyComponent(
  () => import('../features/public-pages/DocumentationPage'),
  'DocumentationPage',
);
const EnterpriseContactPage = lazyComponent(
  () => import('../features/public-pages/EnterpriseContactPage'),
  'EnterpriseContactPage',
);
const EnvVariablesPage = dataPage(
  () => import('../features/env-variables/EnvVariablesPage'),
  'EnvVariablesPage',
);
const GithubAppPermissionsPage = dataPage(
  () => import('../features/github-app/GithubAppPermissionsPage'),
  'GithubAppPermissionsPage',
);
const InvoicesPage = dataPage(() => import('../features/invoices/InvoicesPage'), 'InvoicesPage');
const LandingPage = lazyComponent(() => import('../features/landing/LandingPage'), 'LandingPage');
const MonitoringPage = dataPage(() => import('../features/monitoring/MonitoringPage'), 'MonitoringPage');
const PaymentSuccessPage = dataPage(
  () => import('../features/payment/PaymentSuccessPage'),
  'PaymentSuccessPage',
);
const PrivacyPage = lazyComponent(() => import('../features/public-pages/PrivacyPage'), 'PrivacyPage');
const RepositoryPickerPage = dataPage(
  () => import('../features/repository-picker/RepositoryPickerPage'),
  'RepositoryPickerPage',
);
const StatusPage = lazyComponent(() => import('../features/public-pages/StatusPage'), 'StatusPage');
const SubscriptionsPage = dataPage(
  () => import('../features/subscriptions/SubscriptionsPage'),
  'SubscriptionsPage',
);
const TermsPage = lazyComponent(() => import('../features/public-pages/TermsPage'), 'TermsPage');
const UpcomingFeaturesPage = lazyComponent(
  () => import('../features/public-pages/UpcomingFeaturesPage'),
  'UpcomingFeaturesPage',
);
const WaitingListPage = dataPage(() => import('../features/waiting-list/WaitingListPage'), 'WaitingListPage');
const WorkspaceSettingsPage = dataPage(
  () => import('../features/workspace-settings/WorkspaceSettingsPage'),
  'WorkspaceSettingsPage',
);

export const NotFoundPage = lazyComponent(
  () => import('../features/public-pages/NotFoundPage'),
  'NotFoundPage',
);
export const AdminPage = dataPage(() => import('../features/admin/AdminPage'), 'AdminPage');

export interface AppRoute {
  path: string;
  access: Access;
  Page: LazyComponent<object>;
}

/**
 * Every page inside the main layout (header, footer). To add a screen: export its page from
 * src/features/<area>/, declare it above with lazyComponent and add one line here with its access
 * level. /admin lives outside this table (its own layout and admin-session guard) — see router.tsx.
 */
export const appRoutes: AppRoute[] = [
  // Public
  { path: '/', access: 'public', Page: LandingPage },
  { path: '/documentation', access: 'public', Page: DocumentationPage },
  { path: '/status', access: 'public', Page: StatusPage },
  { path: '/contact', access: 'public', Page: ContactPage },
  { path: '/enterprise-contact', access: 'public', Page: EnterpriseContactPage },
  { path: '/upcoming-features', access: 'public', Page: UpcomingFeaturesPage },
  { path: '/privacy', access: 'public', Page: PrivacyPage },
  { path: '/terms', access: 'public', Page: TermsPage },

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
  { path: '/workspace-settings', access: 'whitelisted', Page: WorkspaceSettingsPage },
  { path: '/subscriptions', access: 'whitelisted', Page: SubscriptionsPage },
  { path: '/invoices', access: 'whitelisted', Page: InvoicesPage },
  { path: '/invoices/:subscriptionId', access: 'whitelisted', Page: InvoicesPage },
];
