import { useAuth } from '../../components/AuthProvider';
import { Button } from '../../components/ui';

export function ClosingCta() {
  const { signIn, isSigningIn } = useAuth();
  return (
    <section aria-labelledby="cta-title" className="py-20">
      <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
        <h2 id="cta-title" className="text-3xl font-semibold tracking-tight text-zinc-950">
          Ship your next container today
        </h2>
        <p className="mt-4 text-lg text-zinc-600">
          Access is limited while we are in beta. Join the whitelist and we will let you in as soon as there
          is room.
        </p>
        <Button size="lg" className="mt-8" onClick={signIn} loading={isSigningIn}>
          Join Free Beta Whitelist
        </Button>
      </div>
    </section>
  );
}
