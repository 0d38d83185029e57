import { CheckCircle2, Mail } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Alert, Badge, type BadgeTone, Button, Card, Input } from '../../components/ui';
import { PageShell } from './PageShell';
import { INCIDENTS, type IncidentSeverity, OVERALL_STATUS, SERVICES, type ServiceStatus } from './statusData';

const STATUS: Record<ServiceStatus, { label: string; tone: BadgeTone }> = {
  operational: { label: 'Operational', tone: 'success' },
  degraded: { label: 'Degraded', tone: 'warning' },
  outage: { label: 'Outage', tone: 'danger' },
  maintenance: { label: 'Maintenance', tone: 'info' },
};
const SEVERITY: Record<IncidentSeverity, BadgeTone> = {
  critical: 'danger',
  major: 'danger',
  minor: 'warning',
  maintenance: 'info',
};

/** Spec: the clock on the status page moves every 60 seconds. */
function useMinuteClock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

export function StatusPage() {
  const now = useMinuteClock();
  const [subscribed, setSubscribed] = useState(false);
  const overall = STATUS[OVERALL_STATUS];
  const onSubscribe = (event: FormEvent) => {
    event.preventDefault();
    setSubscribed(true);
  };

  return (
    <PageShell
      wide
      title="System Status"
      subtitle="Current availability of Slipway services."
      meta={`Last updated: ${now.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`}
    >
      <div className="flex items-center gap-3 rounded-xl border border-emerald-200 bg-emerald-50 px-5 py-4">
        <CheckCircle2 className="h-6 w-6 text-emerald-600" aria-hidden="true" />
        <p className="font-medium text-emerald-900">
          {OVERALL_STATUS === 'operational' ? 'All Systems Operational' : overall.label}
        </p>
      </div>

      <div className="mt-10 grid gap-8 lg:grid-cols-3">
        <div className="space-y-8 lg:col-span-2">
          <StatusSection id="services-title" title="Services">
            <Card className="mt-4 divide-y divide-zinc-100">
              {SERVICES.map((service) => (
                <ServiceRow key={service.name} service={service} />
              ))}
            </Card>
          </StatusSection>

          <StatusSection id="incidents-title" title="Recent incidents">
            <div className="mt-4 space-y-3">
              {INCIDENTS.map((incident) => (
                <IncidentCard key={incident.title} incident={incident} />
              ))}
            </div>
          </StatusSection>
        </div>

        <aside aria-labelledby="subscribe-title">
          <Card className="p-5">
            <div className="flex items-center gap-2">
              <Mail className="h-5 w-5 text-accent-600" aria-hidden="true" />
              <h2 id="subscribe-title" className="font-semibold text-zinc-950">
                Subscribe to updates
              </h2>
            </div>
            <p className="mt-2 text-sm text-zinc-600">Get an email when an incident starts or is resolved.</p>
            {subscribed ? (
              <Alert tone="success" className="mt-4">
                Thanks! You'll receive status updates by email.
              </Alert>
            ) : (
              <form onSubmit={onSubscribe} className="mt-4 space-y-3">
                <Input
                  label="Email address"
                  type="email"
                  name="email"
                  required
                  placeholder="you@company.com"
                />
                <Button type="submit" className="w-full">
                  Subscribe
                </Button>
              </form>
            )}
          </Card>
          <p className="mt-4 text-sm text-zinc-500">
            Uptime over the last 90 days ranges from 99.95% to 99.99% across services.
          </p>
        </aside>
      </div>
    </PageShell>
  );
}

function StatusSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold text-zinc-950">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A service's name and description, its uptime and its status badge. */
function ServiceRow({ service }: { service: (typeof SERVICES)[number] }) {
  const status = STATUS[service.status];
  return (
    <div className="flex items-center justify-between gap-4 px-5 py-4">
      <div className="min-w-0">
        <p className="font-medium text-zinc-900">{service.name}</p>
        <p className="text-sm text-zinc-500">{service.description}</p>
      </div>
      <div className="flex shrink-0 items-center gap-3">
        <span className="hidden text-sm text-zinc-500 sm:inline">{service.uptime} uptime</span>
        <Badge tone={status.tone} dot>
          {status.label}
        </Badge>
      </div>
    </div>
  );
}

/** An incident's title with its severity and state, its date and its summary. */
function IncidentCard({ incident }: { incident: (typeof INCIDENTS)[number] }) {
  return (
    <Card className="px-5 py-4">
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-medium text-zinc-900">{incident.title}</p>
        <Badge tone={SEVERITY[incident.severity]}>{incident.severity}</Badge>
        <Badge tone={incident.status === 'resolved' ? 'success' : 'warning'}>{incident.status}</Badge>
      </div>
      <p className="mt-1 text-sm text-zinc-500">{incident.date}</p>
      <p className="mt-2 text-sm text-zinc-700">{incident.summary}</p>
    </Card>
  );
}
