import { Github } from 'lucide-react';
import { useAuth } from '../../components/AuthProvider';
import { Button, type ButtonSize } from '../../components/ui';

/** 'Sign in with GitHub' → 'Redirecting to GitHub...' then a full-page visit to the install URL. */
export function SignInButton({ size = 'sm', className }: { size?: ButtonSize; className?: string }) {
  const { signIn, isSigningIn } = useAuth();
  return (
    <Button
      size={size}
      className={className}
      variant="primary"
      onClick={signIn}
      loading={isSigningIn}
      icon={Github}
    >
      {isSigningIn ? 'Redirecting to GitHub...' : 'Sign in with GitHub'}
    </Button>
  );
}
