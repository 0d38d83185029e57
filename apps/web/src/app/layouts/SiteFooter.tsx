import { Link } from 'react-router';
import { useAuth } from '../../components/AuthProvider';
import { LogoMark } from '../header/Logo';
import { type LandingSection, useScrollToSection } from '../sectionNavigation';

const linkClasses = 'text-sm text-zinc-600 hover:text-zinc-900';

export function SiteFooter() {
  const scrollTo = useScrollToSection();
  const { user, signIn } = useAuth();
  const sectionLink = (id: LandingSection, label: string) => (
    <button type="button" className={linkClasses} onClick={() => scrollTo(id)}>
      {label}
    </button>
  );
  const pageLink = (to: string, label: string) => (
    <Link to={to} className={linkClasses}>
      {label}
    </Link>
  );

  const getStarted = user ? (
    pageLink('/repository-picker', 'Get Started')
  ) : (
    <button type="button" className={linkClasses} onClick={signIn}>
      Get Started
    </button>
  );
  const columns = [
    {
      id: 'footer-product',
      title: 'Product',
      links: [
        sectionLink('features', 'Features'),
        sectionLink('faq', 'FAQ'),
        pageLink('/documentation', 'Documentation'),
        getStarted,
      ],
    },
    {
      id: 'footer-support',
      title: 'Support',
      links: [
        pageLink('/documentation', 'Documentation'),
        pageLink('/status', 'Status'),
        pageLink('/contact', 'Contact'),
      ],
    },
  ];

  return (
    <footer className="border-t border-zinc-200 bg-zinc-50">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div className="md:col-span-2">
          <div className="flex items-center gap-2">
            <LogoMark className="h-7 w-7" />
            <span className="font-semibold text-zinc-900">Slipway</span>
          </div>
          <p className="mt-3 max-w-sm text-sm text-zinc-600">
            Deploy Docker Compose apps from GitHub to secure virtual machines with HTTPS, logs, health
            monitoring and crash alerts.
          </p>
          <p className="mt-4 inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-xs font-medium text-zinc-700 ring-1 ring-zinc-200">
            <span className="relative flex h-2 w-2" aria-hidden="true">
              <span className="absolute inline-flex h-full w-full motion-safe:animate-ping rounded-full bg-emerald-400 opacity-75" />
              <span className="relative inline-flex h-2 w-2 rounded-full bg-emerald-500" />
            </span>
            Beta Available Now
          </p>
        </div>
        {columns.map(({ id, title, links }) => (
          <nav key={id} aria-labelledby={id}>
            <h2 id={id} className="text-sm font-semibold text-zinc-900">
              {title}
            </h2>
            <ul className="mt-3 space-y-2">
              {links.map((link, index) => (
                <li key={index}>{link}</li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-zinc-200">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-sm text-zinc-500 sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>© {new Date().getFullYear()} Slipway. All rights reserved.</p>
          <div className="flex gap-6">
            <Link to="/privacy" className="hover:text-zinc-900">
              Privacy Policy
            </Link>
            <Link to="/terms" className="hover:text-zinc-900">
              Terms of Service
            </Link>
          </div>
        </div>
      </div>
    </footer>
  );
}
