import { DEFAULT_VM_SIZE, VM_SIZES } from '@slipway/contract';
import { Check } from 'lucide-react';
import { Badge, cn } from '../../components/ui';
import { SectionHeading } from './SectionHeading';

const INCLUDED = [
  'Automatic HTTPS certificates',
  'Live build and runtime logs',
  'Health checks every 30 seconds',
  'Crash alerts by Telegram and email',
];

export function PricingSection() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="pricing-title" eyebrow="Pricing" title="Simple monthly pricing per VM">
          The beta is free. After the beta, you pay a flat monthly price for the VM size you choose.
        </SectionHeading>
        <div className="mx-auto mt-12 grid max-w-4xl gap-6 md:grid-cols-2">
          {VM_SIZES.map((size) => {
            const featured = size.id !== DEFAULT_VM_SIZE;
            return (
              <article
                key={size.id}
                className={cn(
                  'flex flex-col rounded-2xl border bg-white p-8 shadow-sm',
                  featured ? 'border-accent-600 ring-1 ring-accent-600' : 'border-zinc-200',
                )}
              >
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-lg font-semibold text-zinc-900">{size.name}</h3>
                  <Badge tone="success">Free during beta</Badge>
                </div>
                <p className="mt-1 text-sm text-zinc-500">{size.description}</p>
                <p className="mt-6 flex items-baseline gap-1">
                  <span className="text-4xl font-semibold tracking-tight text-zinc-950">${size.price}</span>
                  <span className="text-sm text-zinc-500">/month</span>
                </p>
                <p className="mt-1 text-sm text-zinc-600">{size.specs}</p>
                <ul className="mt-6 space-y-3 text-sm text-zinc-700">
                  {INCLUDED.map((item) => (
                    <li key={item} className="flex gap-2">
                      <Check className="h-5 w-5 shrink-0 text-accent-600" aria-hidden="true" />
                      {item}
                    </li>
                  ))}
                </ul>
              </article>
            );
          })}
        </div>
      </div>
    </section>
  );
}
