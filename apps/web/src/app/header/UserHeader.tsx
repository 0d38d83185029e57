import type { User } from '@slipway/contract';
import { CreditCard, LayoutDashboard, LogOut, type LucideIcon, Plus, UserCog } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../components/AuthProvider';
import { Avatar, Button } from '../../components/ui';
import { resetDeploymentSelection } from '../../lib/deploymentSelection';
import { HeaderShell, navItemClasses } from './HeaderShell';
import { UserMenu } from './UserMenu';

export function UserHeader({ user }: { user: User }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { logout } = useAuth();

  const deployNew = () => {
    resetDeploymentSelection();
    navigate('/repository-picker');
  };
  const signOut = async () => {
    await logout();
    navigate('/');
  };
  // A waiting-list user may only see the waiting list, profile completion and permission pages.
  const showDeployNew = user.whitelisted && pathname !== '/repository-picker';
  const showDashboard = user.whitelisted && pathname !== '/dashboard';

  return (
    <HeaderShell
      desktop={
        <>
          {showDeployNew && (
            <Button size="sm" onClick={deployNew} icon={Plus}>
              Deploy New
            </Button>
          )}
          {showDashboard && (
            <Link to="/dashboard" className={`${navItemClasses} inline-flex items-center gap-1.5`}>
              <LayoutDashboard className="h-4 w-4" aria-hidden="true" />
              Dashboard
            </Link>
          )}
          <UserMenu user={user} onLogout={signOut} />
        </>
      }
      mobile={(close) => (
        <>
          <div className="flex items-center gap-3 px-3 py-2">
            <Avatar src={user.avatar_url} name={user.login} size="sm" />
            <span className="text-sm font-medium text-zinc-900">{user.login}</span>
          </div>
          {showDeployNew && <MobileItem icon={Plus} label="Deploy New" onClick={deployNew} />}
          {showDashboard && (
            <MobileItem icon={LayoutDashboard} label="Dashboard" to="/dashboard" onClick={close} />
          )}
          {user.whitelisted && (
            <MobileItem icon={CreditCard} label="Subscriptions" to="/subscriptions" onClick={close} />
          )}
          {user.whitelisted && (
            <MobileItem icon={UserCog} label="Account Settings" to="/account-settings" onClick={close} />
          )}
          <MobileItem icon={LogOut} label="Logout" onClick={signOut} />
        </>
      )}
    />
  );
}

const mobileItemClasses = `${navItemClasses} inline-flex items-center gap-2`;

/** An entry of the mobile menu: a link when it has `to`, else a button. */
function MobileItem({
  icon: Icon,
  label,
  to,
  onClick,
}: {
  icon: LucideIcon;
  label: string;
  to?: string;
  onClick: () => void;
}) {
  const content = (
    <>
      <Icon className="h-4 w-4" aria-hidden="true" />
      {label}
    </>
  );
  if (to) {
    return (
      <Link to={to} className={mobileItemClasses} onClick={onClick}>
        {content}
      </Link>
    );
  }
  return (
    <button type="button" className={mobileItemClasses} onClick={onClick}>
      {content}
    </button>
  );
}
