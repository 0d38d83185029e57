import { Building2 } from 'lucide-react';
import { ButtonLink, IconTile } from '../../components/ui';

export function EnterpriseSection() {
  return (
    <section id="enterprise" aria-labelledby="enterprise-title" className="pb-20 sm:pb-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex flex-col items-start gap-6 rounded-2xl border border-zinc-200 bg-gradient-to-br from-accent-50 to-white p-8 sm:p-10 md:flex-row md:items-center md:justify-between">
          <div className="flex gap-4">
            <IconTile
              icon={Building2}
              size="lg"
              className="rounded-xl bg-white text-accent-600 shadow-sm ring-1 ring-zinc-200"
            />
            <div>
              <h2 id="enterprise-title" className="text-2xl font-semibold tracking-tight text-zinc-950">
                Enterprise and on-premises
              </h2>
              <p className="mt-2 max-w-xl text-zinc-600">
                Need Slipway inside your own cloud account or data centre, with custom VM sizes, SSO or
                dedicated support? Tell us about your team and we reply within 24 hours.
              </p>
            </div>
          </div>
          <ButtonLink to="/enterprise-contact" size="lg">
            Contact Enterprise Sales
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
