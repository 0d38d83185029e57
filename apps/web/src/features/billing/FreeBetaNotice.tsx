import type { VmSize } from '@slipway/contract';
import { Gift } from 'lucide-react';

/** With no payment provider configured: say plainly that nothing will be charged. */
export function FreeBetaNotice({ vmSize }: { vmSize: VmSize | undefined }) {
  return (
    <section
      aria-label="Free beta"
      className="mt-6 flex gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-emerald-900"
    >
      <Gift className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-hidden="true" />
      <div>
        <p className="font-semibold">The beta is free</p>
        <p className="mt-1 text-sm">
          Nothing will be charged and no payment details are needed.
          {vmSize ? ` Your ${vmSize.name} VM (${vmSize.specs}) costs nothing during the beta.` : ''}
        </p>
      </div>
    </section>
  );
}
