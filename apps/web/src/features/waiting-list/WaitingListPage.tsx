import { CheckCircle2, Clock, Rocket, ShieldCheck, Sparkles } from 'lucide-react';
import { Navigate } from 'react-router';
import { useAuth } from '../../components/AuthProvider';
import { ScreenHeading } from '../../components/ScreenHeading';
import { Avatar, Badge, Card } from '../../components/ui';

const NEXT_STEPS = [
  {
    icon: ShieldCheck,
    title: 'Application review',
    text: 'We review new sign-ups in the order they arrive and let people in as capacity grows.',
  },
  {
    icon: Sparkles,
    title: 'Early access',
    text: "You'll get an email the moment your account is whitelisted — sign in again and you're in.",
  },
  {
    icon: Rocket,
    title: 'Deploy to real VMs',
    text: 'Deploy your Docker apps to real virtual machines with HTTPS, logs, health monitoring and crash alerts.',
  },
];

export function WaitingListPage() {
  const { user } = useAuth();
  if (!user) return null;
  // Someone already let in has nothing to wait for.
  if (user.whitelisted) return <Navigate to="/repository-picker" replace />;
  const fullName = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.name || user.login;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6 sm:py-16">
      <ScreenHeading icon={Clock} title="You're on the Waiting List!" size="lg" centered>
        <div className="mt-4">
          <Badge tone="warning" dot>
            Currently in high demand
          </Badge>
        </div>
      </ScreenHeading>

      <Card className="mt-10 p-6">
        <div className="flex items-center gap-4">
          <Avatar src={user.avatar_url} name={user.login} size="lg" />
          <div className="min-w-0">
            <p className="truncate text-lg font-semibold text-zinc-900">{fullName}</p>
            <p className="truncate text-sm text-zinc-500">@{user.login}</p>
            {user.email && <p className="truncate text-sm text-zinc-500">{user.email}</p>}
          </div>
        </div>
        <div className="mt-6 flex gap-3 rounded-lg bg-emerald-50 px-4 py-3 ring-1 ring-emerald-200">
          <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-hidden="true" />
          <div>
            <p className="font-medium text-emerald-900">You're registered!</p>
            <p className="mt-0.5 text-sm text-emerald-800">
              We'll notify you as soon as we're ready to welcome new users.
            </p>
          </div>
        </div>
      </Card>

      <section aria-labelledby="next-title" className="mt-10">
        <h2 id="next-title" className="text-lg font-semibold text-zinc-950">
          What happens next?
        </h2>
        <ol className="mt-4 space-y-4">
          {NEXT_STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-zinc-100 text-zinc-700">
                <step.icon className="h-4 w-4" aria-hidden="true" />
              </span>
              <div>
                <p className="font-medium text-zinc-900">
                  {index + 1}. {step.title}
                </p>
                <p className="mt-0.5 text-sm text-zinc-600">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
