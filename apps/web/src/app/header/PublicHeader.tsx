import { ArrowLeft } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { type LandingSection, useScrollToSection } from '../sectionNavigation';
import { HeaderShell, navItemClasses } from './HeaderShell';
import { SignInButton } from './SignInButton';

const SECTIONS: Array<{ id: LandingSection; label: string }> = [
  { id: 'features', label: 'Features' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'faq', label: 'FAQ' },
];

export function PublicHeader() {
  const { pathname } = useLocation();
  const scrollTo = useScrollToSection();
  const onHome = pathname === '/';

  const items = (close?: () => void) => (
    <>
      {!onHome && (
        <Link to="/" className={`${navItemClasses} inline-flex items-center gap-1.5`} onClick={close}>
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Back to Home
        </Link>
      )}
      {SECTIONS.map((section) => (
        <button
          key={section.id}
          type="button"
          className={navItemClasses}
          onClick={() => {
            close?.();
            scrollTo(section.id);
          }}
        >
          {section.label}
        </button>
      ))}
    </>
  );

  return (
    <HeaderShell
      desktop={
        <>
          <nav aria-label="Main" className="flex items-center gap-1">
            {items()}
          </nav>
          <span className="mx-2 h-6 w-px bg-zinc-200" aria-hidden="true" />
          <SignInButton />
        </>
      }
      mobile={(close) => (
        <>
          {items(close)}
          <div className="mt-2 border-t border-zinc-100 pt-3">
            <SignInButton size="md" className="w-full" />
          </div>
        </>
      )}
    />
  );
}
