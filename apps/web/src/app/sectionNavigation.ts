import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Spec: after navigating home from another page, wait this long before scrolling to the section. */
export const SECTION_SCROLL_DELAY_MS = 100;

export type LandingSection = 'features' | 'pricing' | 'faq' | 'how-it-works' | 'security' | 'enterprise';

function scrollToSection(id: string) {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

/** Scrolls to a landing-page section, going home first when on another page. */
export function useScrollToSection() {
  const location = useLocation();
  const navigate = useNavigate();
  return useCallback(
    (id: LandingSection) => {
      if (location.pathname === '/') {
        scrollToSection(id);
        return;
      }
      navigate('/');
      window.setTimeout(() => scrollToSection(id), SECTION_SCROLL_DELAY_MS);
    },
    [location.pathname, navigate],
  );
}
