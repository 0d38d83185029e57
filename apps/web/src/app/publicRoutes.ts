import { lazyComponent } from '../lib/lazyComponent';
import type { AppRoute } from './appRoute';
import { dataPage } from './dataPage';

// Every screen is its own chunk, fetched on first visit (or at start-up for the screen the page opens
// on): the first JavaScript a visitor loads holds the shell (header, footer, router) and this table of
// public screens, not the app. The signed-in screens' table loads with the first of them (router.tsx).
const ApiReferencePage = dataPage(
  () => import('../features/public-pages/api-reference/ApiReferencePage'),
  'ApiReferencePage',
);
const ContactPage = lazyComponent(() => import('../features/public-pages/ContactPage'), 'ContactPage');
const DocumentationPage = lazyComponent(
  () => import('../features/public-pages/DocumentationPage'),
  'DocumentationPage',
);
const EnterpriseContactPage = lazyComponent(
  () => import('../features/public-pages/EnterpriseContactPage'),
  'EnterpriseContactPage',
);
const LandingPage = lazyComponent(() => import('../features/landing/LandingPage'), 'LandingPage');
const PrivacyPage = lazyComponent(() => import('../features/public-pages/PrivacyPage'), 'PrivacyPage');
const StatusPage = lazyComponent(() => import('../features/public-pages/StatusPage'), 'StatusPage');
const TermsPage = lazyComponent(() => import('../features/public-pages/TermsPage'), 'TermsPage');
const UpcomingFeaturesPage = lazyComponent(
  () => import('../features/public-pages/UpcomingFeaturesPage'),
  'UpcomingFeaturesPage',
);

/** The public screens, inside the main layout; every other address is looked up in signedInRoutes.tsx. */
export const publicRoutes: Array<Pick<AppRoute, 'path' | 'Page'>> = [
  { path: '/', Page: LandingPage },
  { path: '/documentation', Page: DocumentationPage },
  { path: '/api-reference', Page: ApiReferencePage },
  { path: '/status', Page: StatusPage },
  { path: '/contact', Page: ContactPage },
  { path: '/enterprise-contact', Page: EnterpriseContactPage },
  { path: '/upcoming-features', Page: UpcomingFeaturesPage },
  { path: '/privacy', Page: PrivacyPage },
  { path: '/terms', Page: TermsPage },
];
