import { CheckCircle2, ExternalLink, LayoutDashboard, PartyPopper, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ScreenHeading } from '../../components/ScreenHeading';
import { Badge, Button, ButtonLink, buttonClasses, Card, CardBody } from '../../components/ui';
import { resetDeploymentSelection } from '../../lib/deploymentSelection';
import type { DisplayStep } from './deployProgress';
import { completedCount } from './deployProgress';
import { StepList } from './StepList';

/** How long the completion banner stays. */
export const BANNER_MS = 5000;

export function SuccessView({
  repo,
  siteUrl,
  steps,
}: {
  repo: string;
  siteUrl: string | null;
  steps: DisplayStep[];
}) {
  const [banner, setBanner] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setBanner(false), BANNER_MS);
    return () => clearTimeout(timer);
  }, []);

  return (
    <div className="space-y-6">
      {banner && (
        <div
          role="status"
          data-testid="completion-banner"
          className="flex items-center gap-3 rounded-xl bg-emerald-600 px-5 py-3 text-sm font-medium text-white shadow"
        >
          <PartyPopper className="h-5 w-5" aria-hidden="true" /> Your deployment finished — {repo} is up and
          running.
        </div>
      )}

      <ScreenHeading icon={CheckCircle2} title="Deployment Successful!" tone="success" size="xl" centered>
        <p className="mt-2 text-zinc-600">
          <span className="font-medium text-zinc-900">{repo}</span> is now live
        </p>
      </ScreenHeading>

      <Card>
        <CardBody className="grid gap-6 md:grid-cols-2">
          <div className="space-y-3 text-sm">
            <div className="flex items-center justify-between">
              <span className="text-zinc-500">Status</span>
              <Badge tone="success" dot>
                Live
              </Badge>
            </div>
            <div className="flex items-center justify-between gap-4">
              <span className="text-zinc-500">URL</span>
              {siteUrl ? (
                <a
                  href={siteUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="truncate font-medium text-accent-700 hover:underline"
                  data-testid="site-url"
                >
                  {siteUrl}
                </a>
              ) : (
                <span className="text-zinc-400">Not available</span>
              )}
            </div>
            <div className="flex items-center justify-between">
              <span className="text-zinc-500">Steps completed</span>
              <span className="font-medium text-zinc-900">
                {completedCount(steps)}/{steps.length}
              </span>
            </div>
          </div>
          <StepList steps={steps} />
        </CardBody>
      </Card>

      <Card>
        <CardBody>
          <h2 className="font-semibold text-zinc-900">What's Next</h2>
          <ul className="mt-3 grid gap-2 text-sm text-zinc-600 sm:grid-cols-2">
            <li>Watch live logs, health and alerts on the dashboard.</li>
            <li>Set up email or Telegram crash alerts in the workspace settings.</li>
            <li>Change environment variables and redeploy whenever you push.</li>
            <li>Invite traffic: your app is served over HTTPS.</li>
          </ul>
        </CardBody>
      </Card>

      <div className="flex flex-col gap-3 sm:flex-row sm:justify-center">
        <ButtonLink to="/dashboard" variant="secondary" icon={LayoutDashboard}>
          View Dashboard
        </ButtonLink>
        <ButtonLink
          to="/repository-picker"
          onClick={resetDeploymentSelection}
          variant="secondary"
          icon={Plus}
        >
          Deploy Another App
        </ButtonLink>
        {siteUrl ? (
          <a href={siteUrl} target="_blank" rel="noopener noreferrer" className={buttonClasses('primary')}>
            <ExternalLink className="h-4 w-4" aria-hidden="true" /> Visit Site
          </a>
        ) : (
          <Button disabled icon={ExternalLink}>
            Visit Site
          </Button>
        )}
      </div>
    </div>
  );
}
