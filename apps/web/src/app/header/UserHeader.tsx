import type { User } from '@slipway/contract';
import { CreditCard, LayoutDashboard, LogOut, Plus } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Avatar, Button } from '../../components/ui';
import { useAuth } from '../../lib/AuthProvider';
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
            <Button size="sm" onClick={deployNew} icon={<Plus className="h-4 w-4" aria-hidden="true" />}>
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
          {showDeployNew && (
            <button
              type="button"
              className={`${navItemClasses} inline-flex items-center gap-2`}
              onClick={deployNew}
            >
              <Plus className="h-4 w-4" aria-hidden="true" />
              Deploy New
            </button>
          )}
          {showDashboard && (
            <Link
              to="/dashboard"
              className={`${navItemClasses} inline-flex items-center gap-2`}
              onClick={close}
            >
              <LayoutDashboard className="h-4 w-4" aria-hidden="true" />
              Dashboard
            </Link>
          )}
          {user.whitelisted && (
            <Link
              to="/subscriptions"
              className={`${navItemClasses} inline-flex items-center gap-2`}
              onClick={close}
            >
              <CreditCard className="h-4 w-4" aria-hidden="true" />
              Subscriptions
            </Link>
          )}
          <button
            type="button"
            className={`${navItemClasses} inline-flex items-center gap-2`}
            onClick={signOut}
          >
            <LogOut className="h-4 w-4" aria-hidden="true" />
            Logout
          </button>
        </>
      )}
    />
  );
}
