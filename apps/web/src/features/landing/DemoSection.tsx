import { GitBranch, Github, Rocket, Server } from 'lucide-react';
import { IconTile } from '../../components/ui/IconTile';
import { DemoVideo } from './DemoVideo';
import { SectionHeading } from './SectionHeading';

const STEPS = [
  {
    icon: Github,
    title: 'Sign in with GitHub',
    text: 'Install the Slipway GitHub App on the repositories you want to deploy.',
  },
  {
    icon: GitBranch,
    title: 'Pick a repo and branch',
    text: 'Choose the repository, the branch and a VM size: 1 GB or 4 GB of RAM.',
  },
  {
    icon: Server,
    title: 'Add environment variables',
    text: 'Paste KEY=VALUE lines or drop a .env file. Secrets go to a key vault.',
  },
  {
    icon: Rocket,
    title: 'Deploy and watch it go live',
    text: 'Follow the build log live; your services get HTTPS links when they answer.',
  },
];

/** The demo video (loaded on click) and the four steps from repository to live URL. */
export function DemoSection() {
  return (
    <section id="how-it-works" aria-labelledby="how-it-works-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="how-it-works-title"
          eyebrow="How it works"
          title="From repository to live URL in four steps"
        >
          No cloud console, no servers to configure. If it runs with Docker, it runs on Slipway.
        </SectionHeading>
        <DemoVideo />
        <ol className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li
              key={step.title}
              className="relative rounded-xl border border-zinc-200 bg-white p-6 shadow-sm"
            >
              <div className="flex items-center justify-between">
                <IconTile icon={step.icon} className="rounded-lg bg-accent-50 text-accent-600" />
                <span className="font-mono text-sm text-zinc-400">0{index + 1}</span>
              </div>
              <h3 className="mt-4 font-semibold text-zinc-900">{step.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-zinc-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
