import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card, CardHeader } from '../../components/ui';

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
