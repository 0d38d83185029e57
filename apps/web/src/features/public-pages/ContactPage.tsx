import { Building2, Clock, Mail, MessageCircle } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '../../components/ui';
import { ENTERPRISE_EMAIL, SUPPORT_EMAIL } from './contactDetails';
import { PageShell } from './PageShell';

const FAQ = [
  {
    q: 'How fast do you reply?',
    a: 'Support replies within 2 hours during business hours. Enterprise inquiries get an answer within 24 hours.',
  },
  {
    q: 'I am on the waiting list. Can you let me in sooner?',
    a: 'We let people in as capacity grows. Tell us what you want to deploy and we will see what we can do.',
  },
  {
    q: 'My deployment failed. What should I send you?',
    a: 'The repository and branch, the time of the deployment, and the error shown on the failure screen.',
  },
  {
    q: 'Where do I report a security issue?',
    a: `Email ${SUPPORT_EMAIL} with "Security" in the subject. We answer security reports first.`,
  },
];

export function ContactPage() {
  return (
    <PageShell
      wide
      title="Contact Us"
      subtitle="We're here to help with deployments, billing and everything in between."
    >
      <div className="grid gap-6 md:grid-cols-3">
        <Card className="p-6">
          <Mail className="h-6 w-6 text-accent-600" aria-hidden="true" />
          <h2 className="mt-4 font-semibold text-zinc-950">Email support</h2>
          <p className="mt-1 text-sm text-zinc-600">For help with your account and deployments.</p>
          <a
            href={`mailto:${SUPPORT_EMAIL}`}
            className="mt-3 inline-block font-medium text-accent-700 hover:underline"
          >
            {SUPPORT_EMAIL}
          </a>
        </Card>
        <Card className="p-6">
          <Building2 className="h-6 w-6 text-accent-600" aria-hidden="true" />
          <h2 className="mt-4 font-semibold text-zinc-950">Enterprise sales</h2>
          <p className="mt-1 text-sm text-zinc-600">On-premises, custom VM sizes and dedicated support.</p>
          <a
            href={`mailto:${ENTERPRISE_EMAIL}`}
            className="mt-3 block font-medium text-accent-700 hover:underline"
          >
            {ENTERPRISE_EMAIL}
          </a>
          <Link
            to="/enterprise-contact"
            className="mt-3 inline-block font-medium text-accent-700 hover:underline"
          >
            Contact Enterprise Sales
          </Link>
        </Card>
        <Card className="p-6">
          <Clock className="h-6 w-6 text-accent-600" aria-hidden="true" />
          <h2 className="mt-4 font-semibold text-zinc-950">Response times</h2>
          <p className="mt-1 text-sm text-zinc-600">Support replies within 2 hours.</p>
          <p className="mt-1 text-sm text-zinc-600">Enterprise inquiries within 24 hours.</p>
          <p className="mt-1 text-sm text-zinc-500">Monday–Friday, 9:00–18:00 PT</p>
        </Card>
      </div>

      <section aria-labelledby="contact-faq" className="mt-14">
        <div className="flex items-center gap-2">
          <MessageCircle className="h-5 w-5 text-accent-600" aria-hidden="true" />
          <h2 id="contact-faq" className="text-xl font-semibold text-zinc-950">
            Frequently asked questions
          </h2>
        </div>
        <dl className="mt-6 grid gap-6 md:grid-cols-2">
          {FAQ.map((item) => (
            <div key={item.q} className="rounded-xl border border-zinc-200 p-5">
              <dt className="font-medium text-zinc-900">{item.q}</dt>
              <dd className="mt-2 text-sm leading-relaxed text-zinc-600">{item.a}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-8 text-sm text-zinc-600">
          Looking for how-tos? Read the{' '}
          <Link to="/documentation" className="font-medium text-accent-700 hover:underline">
            documentation
          </Link>{' '}
          or check the{' '}
          <Link to="/status" className="font-medium text-accent-700 hover:underline">
            system status
          </Link>
          .
        </p>
      </section>
    </PageShell>
  );
}
