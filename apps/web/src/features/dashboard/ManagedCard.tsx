import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AsyncSection, type Loadable } from '../../components/AsyncSection';
import { Card, CardBody, CardHeader } from '../../components/ui';

/** A card of what a Workspace Settings tab manages (`tab`): its title, and Manage, which opens that tab. */
export function ManagedCard({
  title,
  icon,
  workspace,
  tab,
  children,
}: {
  title: string;
  icon: LucideIcon;
  workspace: string;
  tab: string;
  children: ReactNode;
}) {
  const manage = (
    <Link
      to={`/workspace-settings?workspace=${encodeURIComponent(workspace)}&tab=${tab}`}
      className="text-sm font-medium whitespace-nowrap text-accent-700 hover:underline"
    >
      Manage
    </Link>
  );
  return (
    <Card>
      <CardHeader title={title} icon={icon} action={manage} />
      {children}
    </Card>
  );
}

/**
 * A managed card showing what `query` reads: a small spinner while it loads, `failedText` when it cannot be read,
 * else `children` with the data (`testId` names the card's body for tests).
 */
export function ManagedQueryCard<Data>({
  query,
  failedText,
  testId,
  children,
  ...card
}: {
  title: string;
  icon: LucideIcon;
  workspace: string;
  tab: string;
  query: Loadable<Data>;
  failedText: string;
  testId: string;
  children: (data: Data) => ReactNode;
}) {
  return (
    <ManagedCard {...card}>
      <CardBody className="space-y-3 text-sm" data-testid={testId}>
        <AsyncSection query={query} loading="inline" failed={<p className="text-zinc-500">{failedText}</p>}>
          {children}
        </AsyncSection>
      </CardBody>
    </ManagedCard>
  );
}
