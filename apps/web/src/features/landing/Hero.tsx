import { ArrowRight, Github, Sparkles } from 'lucide-react';
import { useAuth } from '../../components/AuthProvider';
import { Badge, Button, buttonClasses } from '../../components/ui';
import { DeployLogSample } from './DeployLogSample';

export function Hero() {
  const { signIn, isSigningIn } = useAuth();
  return (
    <section className="relative overflow-hidden border-b border-zinc-200 bg-gradient-to-b from-zinc-50 to-white">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(79,70,229,0.10),transparent_60%)]"
      />
      <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-2">
        <div>
          <Badge tone="accent" icon={<Sparkles className="h-3.5 w-3.5" aria-hidden="true" />}>
            Limited whitelist access
          </Badge>
          <h1 className="mt-6 text-4xl font-semibold tracking-tight text-zinc-950 sm:text-5xl">
            Deploy Docker apps from GitHub to a secure VM in minutes
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-zinc-600">
            Pick a repository, a branch and a VM size. Slipway builds your Dockerfile or docker-compose
            project, serves it over HTTPS, streams the logs and alerts you when it crashes — no cloud console,
            no SSH. The beta is free.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button size="lg" onClick={signIn} loading={isSigningIn} icon={Github} iconClassName="h-5 w-5">
              Join Free Beta Whitelist
            </Button>
            <a href="#how-it-works" className={buttonClasses('secondary', 'lg')}>
              See How It Works
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </a>
          </div>
          <p className="mt-4 text-sm text-zinc-500">
            Sign in with GitHub to request access. Free during the beta — no credit card.
          </p>
        </div>
        <DeployLogSample />
      </div>
    </section>
  );
}
