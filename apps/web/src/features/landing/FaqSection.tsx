import { ChevronDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SectionHeading } from './SectionHeading';

const link = 'font-medium text-accent-700 underline-offset-2 hover:underline';

const QUESTIONS: Array<{ q: string; a: ReactNode }> = [
  {
    q: 'What kinds of apps can I deploy?',
    a: 'Any app that runs with Docker: a Dockerfile, or a docker-compose file with multiple containers. Multi-stage Docker builds are supported. Non-dockerized apps are unsupported — add a Dockerfile first.',
  },
  {
    q: 'Can I SSH into my VM?',
    a: 'No. There is no SSH access, and VMs use bastion-style isolation with no exposed VM ports. Logs, metrics and redeploys are all in the dashboard.',
  },
  {
    q: 'How do I keep data between deployments?',
    a: 'Use storage containers (named volumes) in your compose file. They persist across redeploys.',
  },
  {
    q: 'How are environment variables and secrets stored?',
    a: 'They go through a key vault integration, are injected into your containers at start, and never appear in build logs.',
  },
  {
    q: 'Can I get my logs out of Slipway?',
    a: 'Yes. Logs stream live in the dashboard and can be exported via an API.',
  },
  {
    q: 'Can I roll back to a previous deployment?',
    a: (
      <>
        Rollback is coming soon. See the{' '}
        <Link to="/upcoming-features" className={link}>
          upcoming features
        </Link>{' '}
        for what is next.
      </>
    ),
  },
  {
    q: 'How much does it cost?',
    a: 'The beta is free. After the beta, a 1 GB RAM VM costs $12/month and a 4 GB RAM VM $30/month.',
  },
  {
    q: 'Do you offer enterprise or on-premises installs?',
    a: (
      <>
        Yes — enterprise and on-premises offerings are handled by our sales team.{' '}
        <Link to="/enterprise-contact" className={link}>
          Contact Enterprise Sales
        </Link>
        .
      </>
    ),
  },
];

export function FaqSection() {
  return (
    <section
      id="faq"
      aria-labelledby="faq-title"
      className="border-t border-zinc-200 bg-zinc-50 py-20 sm:py-24"
    >
      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <SectionHeading id="faq-title" eyebrow="Developer FAQ" title="Questions developers ask us" />
        <div className="mt-12 divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white">
          {QUESTIONS.map((item) => (
            <details key={item.q} className="group px-6 py-4 [&_summary::-webkit-details-marker]:hidden">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium text-zinc-900">
                {item.q}
                <ChevronDown
                  className="h-5 w-5 shrink-0 text-zinc-400 transition-transform group-open:rotate-180"
                  aria-hidden="true"
                />
              </summary>
              <div className="mt-3 leading-relaxed text-zinc-600">{item.a}</div>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
