import { COMPANY_SIZES, type EnterpriseInquiry, TIMELINES } from '@slipway/contract';
import { CheckCircle2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { submitEnterpriseInquiry } from '../../api/enterprise';
import { Button, ButtonLink, Card, Input, Select, Textarea } from '../../components/ui';
import { ENTERPRISE_EMAIL } from './contactDetails';
import { PageShell } from './PageShell';

type FormState = Required<Omit<EnterpriseInquiry, 'submittedAt'>>;

const EMPTY: FormState = {
  companyName: '',
  contactName: '',
  email: '',
  phone: '',
  companySize: '',
  industry: '',
  useCase: '',
  timeline: '',
  requirements: '',
};

const SIZE_OPTIONS = COMPANY_SIZES.map((size) => ({ value: size, label: `${size} employees` }));
const TIMELINE_LABELS: Record<(typeof TIMELINES)[number], string> = {
  immediate: 'Immediately',
  short: 'Within 1–3 months',
  medium: 'Within 3–6 months',
  long: 'In 6+ months',
  exploring: 'Just exploring',
};
const TIMELINE_OPTIONS = TIMELINES.map((value) => ({ value, label: TIMELINE_LABELS[value] }));

/** When the API is unreachable the inquiry still gets to us: as an email draft the user sends. */
function openMailDraft(inquiry: EnterpriseInquiry) {
  const body = Object.entries(inquiry)
    .filter(([, value]) => value)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');
  const subject = `Enterprise inquiry from ${inquiry.companyName}`;
  window.location.assign(
    `mailto:${ENTERPRISE_EMAIL}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`,
  );
}

export function EnterpriseContactPage() {
  const [form, setForm] = useState<FormState>(EMPTY);
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);
  const field = (name: keyof FormState) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) =>
      setForm((prev) => ({ ...prev, [name]: event.target.value })),
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const inquiry: EnterpriseInquiry = { ...form, submittedAt: new Date().toISOString() };
    setSubmitting(true);
    try {
      await submitEnterpriseInquiry(inquiry);
    } catch {
      openMailDraft(inquiry);
    } finally {
      setSubmitting(false);
      setSent(true);
    }
  };

  if (sent) {
    return (
      <PageShell title="Enterprise Sales">
        <Card className="mx-auto max-w-lg p-8 text-center">
          <CheckCircle2 className="mx-auto h-12 w-12 text-emerald-500" aria-hidden="true" />
          <h2 className="mt-4 text-2xl font-semibold text-zinc-950">Thank you for your interest!</h2>
          <p className="mt-2 text-zinc-600">
            Our enterprise team has your inquiry and will get back to you within 24 hours.
          </p>
          <ButtonLink to="/" variant="secondary" className="mt-6">
            Back to Home
          </ButtonLink>
        </Card>
      </PageShell>
    );
  }

  return (
    <PageShell
      title="Contact Enterprise Sales"
      subtitle="On-premises installs, custom VM sizes, SSO and dedicated support. We reply within 24 hours."
    >
      <Card className="p-6 sm:p-8">
        <form onSubmit={onSubmit} className="space-y-6">
          <div className="grid gap-5 sm:grid-cols-2">
            <Input label="Company Name" required autoComplete="organization" {...field('companyName')} />
            <Input label="Contact Name" required autoComplete="name" {...field('contactName')} />
            <Input label="Email" type="email" required autoComplete="email" {...field('email')} />
            <Input label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
            <Select
              label="Company Size"
              placeholder="Select company size"
              options={SIZE_OPTIONS}
              {...field('companySize')}
            />
            <Input label="Industry" placeholder="e.g. Fintech, Healthcare" {...field('industry')} />
          </div>
          <Textarea
            label="Use Case"
            placeholder="What would you like to deploy with Slipway?"
            {...field('useCase')}
          />
          <Select
            label="Timeline"
            placeholder="Select a timeline"
            options={TIMELINE_OPTIONS}
            {...field('timeline')}
          />
          <Textarea
            label="Additional Requirements"
            placeholder="Compliance, regions, SSO, support levels…"
            {...field('requirements')}
          />
          <div className="flex flex-col-reverse gap-3 border-t border-zinc-100 pt-6 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-xs text-zinc-500">Fields marked * are required.</p>
            <Button type="submit" size="lg" loading={submitting}>
              {submitting ? 'Sending...' : 'Submit Inquiry'}
            </Button>
          </div>
        </form>
      </Card>
    </PageShell>
  );
}
