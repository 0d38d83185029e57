import { ButtonLink } from '../../components/ui';

export function NotFoundPage() {
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-md flex-col items-center justify-center px-4 text-center">
      <p className="font-mono text-sm text-accent-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold text-zinc-950">Page not found</h1>
      <p className="mt-2 text-zinc-600">The page you are looking for does not exist or has moved.</p>
      <ButtonLink to="/" className="mt-6">
        Back to Home
      </ButtonLink>
    </div>
  );
}
