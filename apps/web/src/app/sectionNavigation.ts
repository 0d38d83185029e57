import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Spec: after navigating home from another page, wait this long before scrolling to the section. */
export const SECTION_SCROLL_DELAY_MS = 100;

export type LandingSection = 'features' | 'pricing' | 'faq' | 'how-it-works' | 'security' | 'enterprise';

/** How long a section may take to appear after navigating home (the landing page loads as a chunk of its own). */
const SECTION_WAIT_MS = 10_000;

function scrollToSection(id: string) {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

/** Scrolls once the section is on the page: on a slow connection the landing page may still be loading. */
function scrollWhenRendered(id: string, deadline = Date.now() + SECTION_WAIT_MS) {
  if (document.getElementById(id)) scrollToSection(id);
  else if (Date.now() < deadline) window.requestAnimationFrame(() => scrollWhenRendered(id, deadline));
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
      window.setTimeout(() => scrollWhenRendered(id), SECTION_SCROLL_DELAY_MS);
    },
    [location.pathname, navigate],
  );
}
