import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../../components/AuthProvider';
import { LoadingView } from '../../components/ui';
import { ClosingCta } from './ClosingCta';
import { DemoSection } from './DemoSection';
import { EnterpriseSection } from './EnterpriseSection';
import { FaqSection } from './FaqSection';
import { FeatureCards } from './FeatureCards';
import { Hero } from './Hero';
import { PricingSection } from './PricingSection';
import { SecuritySection } from './SecuritySection';

export function LandingPage() {
  const { user, loading } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();

  useEffect(() => {
    if (user) navigate(user.whitelisted ? '/repository-picker' : '/waiting-list', { replace: true });
  }, [user, navigate]);

  if (loading) {
    return params.has('code') ? (
      <LoadingView title="Completing sign in..." subtitle="Processing GitHub authentication" />
    ) : (
      <LoadingView />
    );
  }
  if (user) return <LoadingView title="Redirecting..." />;

  return (
    <>
      <Hero />
      <DemoSection />
      <FeatureCards />
      <SecuritySection />
      <PricingSection />
      <EnterpriseSection />
      <FaqSection />
      <ClosingCta />
    </>
  );
}
