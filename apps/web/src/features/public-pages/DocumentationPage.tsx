import { Activity, BookOpen, LifeBuoy, Map as MapIcon } from 'lucide-react';
import { Link } from 'react-router';
import { PageShell, Prose } from './PageShell';

const STEPS = [
  {
    title: 'Sign in with GitHub',
    text: 'Install the Slipway GitHub App on the repositories you want to deploy.',
  },
  { title: 'Choose a repository', text: 'Pick the repository, its branch and a VM size (1 GB or 4 GB RAM).' },
  { title: 'Add environment variables', text: 'Optional: paste KEY=VALUE lines or upload a .env file.' },
  { title: 'Deploy', text: 'Start the deployment and follow the build log until your services are live.' },
];

const HELP = [
  { to: '/contact', icon: LifeBuoy, title: 'Contact support', text: 'Questions, bugs or feedback.' },
  { to: '/status', icon: Activity, title: 'System status', text: 'Current availability and incidents.' },
  { to: '/upcoming-features', icon: MapIcon, title: 'Roadmap', text: 'What we are building next.' },
  { to: '/terms', icon: BookOpen, title: 'Terms of Service', text: 'Plans, uptime and support targets.' },
];

export function DocumentationPage() {
  return (
    <PageShell title="Documentation" subtitle="Everything you need to deploy your first app on Slipway.">
      <section aria-labelledby="getting-started">
        <h2 id="getting-started" className="text-xl font-semibold text-zinc-950">
          Getting started
        </h2>
        <ol className="mt-6 grid gap-4 sm:grid-cols-2">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-4 rounded-xl border border-zinc-200 p-5">
              <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-accent-600 text-sm font-semibold text-white">
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold text-zinc-900">{step.title}</h3>
                <p className="mt-1 text-sm text-zinc-600">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <Prose className="mt-4">
        <h2 id="supported-apps">Supported apps</h2>
        <p>
          Slipway deploys <strong>Docker Compose</strong> projects only. Your repository needs a{' '}
          <code>docker-compose.yml</code> (or <code>compose.yaml</code>) at its root. Services may build from
          Dockerfiles, including multi-stage builds, and a project may run multiple containers. Non-dockerized
          apps are unsupported.
        </p>
        <ul>
          <li>
            Publish the port of every service you want reachable, e.g. <code>ports: ["3000:3000"]</code>.
          </li>
          <li>Use named volumes for data that must survive a redeploy.</li>
          <li>
            Privileged containers, host networking and bind mounts of host paths are rejected for safety.
          </li>
        </ul>

        <h2 id="notifications">Notifications</h2>
        <p>
          Slipway checks your app every 30 seconds and sends an alert within 60 seconds when a container
          crashes or stops answering. Configure channels in{' '}
          <strong>Workspace Settings → Notifications</strong>:
        </p>
        <ul>
          <li>
            <strong>Email</strong>: enter the address to notify; use Test to send a test message.
          </li>
          <li>
            <strong>Telegram</strong>: start the Slipway bot once, get your numeric chat ID from an ID-lookup
            bot, and enter it as <code>chat_id</code> (or several as <code>chat_ids</code>).
          </li>
        </ul>

        <h2 id="environment-variables">Environment variables</h2>
        <p>
          Add variables during deployment or later in Workspace Settings. Paste <code>KEY=VALUE</code> lines
          or drop a <code>.env</code> / <code>.txt</code> file. Lines starting with <code>#</code> are ignored
          and surrounding quotes are removed. Values are stored encrypted and are available to your containers
          at start, never in build logs.
        </p>

        <h2 id="custom-domains">Custom domains and SSL</h2>
        <p>
          Every service with a published port gets its own HTTPS address with an automatically issued SSL
          certificate. Custom domains are on the <Link to="/upcoming-features">roadmap</Link>; contact us if
          you need one during the beta.
        </p>

        <h2 id="api">API</h2>
        <p>
          Everything the dashboard does goes through Slipway&apos;s HTTP API. The{' '}
          <Link to="/api-reference">API reference</Link> lists every call with its parameters, answers and the
          sign-in it needs, and links the OpenAPI 3.1 document it is read from, for your own tools.
        </p>
      </Prose>

      <section aria-labelledby="help" className="mt-12">
        <h2 id="help" className="text-xl font-semibold text-zinc-950">
          Need help?
        </h2>
        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          {HELP.map((item) => (
            <Link
              key={item.to}
              to={item.to}
              className="flex gap-4 rounded-xl border border-zinc-200 p-5 transition-colors hover:border-accent-300 hover:bg-accent-50/40"
            >
              <item.icon className="h-5 w-5 shrink-0 text-accent-600" aria-hidden="true" />
              <div>
                <p className="font-medium text-zinc-900">{item.title}</p>
                <p className="mt-1 text-sm text-zinc-600">{item.text}</p>
              </div>
            </Link>
          ))}
        </div>
      </section>
    </PageShell>
  );
}
