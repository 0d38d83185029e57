import { Suspense, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { setApiNavigator } from '../../api/authRedirects';
import { useAuth } from '../../components/AuthProvider';
import { Alert } from '../../components/ui';
import { HeaderShell } from '../header/HeaderShell';
import { UserHeader } from '../header/lazyUserHeader';
import { MobileMenuProvider } from '../header/mobileMenu';
import { PublicHeader } from '../header/PublicHeader';
import { ScrollToTop } from '../ScrollToTop';
import { SiteFooter } from './SiteFooter';

/** Header (signed-in or public), the page, and the footer. */
export function RootLayout() {
  const { user, error } = useAuth();
  const navigate = useNavigate();

  useEffect(() => {
    setApiNavigator((path) => navigate(path));
  }, [navigate]);

  return (
    <div className="flex min-h-screen flex-col bg-white">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <ScrollToTop />
      <MobileMenuProvider>
        {user ? (
          <Suspense fallback={<HeaderShell desktop={null} mobile={() => null} />}>
            <UserHeader user={user} />
          </Suspense>
        ) : (
          <PublicHeader />
        )}
      </MobileMenuProvider>
      {error && (
        <div className="mx-auto w-full max-w-6xl px-4 pt-4 sm:px-6">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
