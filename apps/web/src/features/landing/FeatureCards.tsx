import { BellRing, Boxes, Lock, ScrollText } from 'lucide-react';
import { IconTile } from '../../components/ui/IconTile';
import { SectionHeading } from './SectionHeading';
import { SupportMatrix } from './SupportMatrix';

const FEATURES = [
  {
    icon: Boxes,
    title: 'Docker and docker-compose',
    text: 'Multi-stage Docker builds and docker-compose projects with multiple containers are supported. Persistent storage through storage containers in your compose file.',
  },
  {
    icon: Lock,
    title: 'HTTPS by default',
    text: 'Every service gets its own HTTPS address with an automatically issued certificate. Secure virtual machines, nothing to configure.',
  },
  {
    icon: ScrollText,
    title: 'Live logs and metrics',
    text: 'Build and runtime logs stream in the dashboard and can be exported via an API. CPU, memory and network per container.',
  },
  {
    icon: BellRing,
    title: 'Crash alerts',
    text: 'Your app is checked every 30 seconds; a response over 5 seconds counts as slow. Alerts reach you by Telegram and email within 60 seconds.',
  },
];

export function FeatureCards() {
  return (
    <section
      id="features"
      aria-labelledby="features-title"
      className="border-y border-zinc-200 bg-zinc-50 py-20 sm:py-24"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="features-title"
          eyebrow="Features"
          title="Everything a deployment needs, nothing it doesn't"
        >
          Slipway runs your containers, keeps an eye on them and tells you when something breaks.
        </SectionHeading>
        <div className="mt-12 grid gap-6 sm:grid-cols-2">
          {FEATURES.map((feature) => (
            <article key={feature.title} className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm">
              <IconTile icon={feature.icon} className="rounded-lg bg-accent-600 text-white" />
              <h3 className="mt-4 text-lg font-semibold text-zinc-900">{feature.title}</h3>
              <p className="mt-2 leading-relaxed text-zinc-600">{feature.text}</p>
            </article>
          ))}
        </div>
        <SupportMatrix />
      </div>
    </section>
  );
}
