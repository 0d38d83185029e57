import { AddDomainForm } from './AddDomainForm';
import { DomainList } from './DomainList';

/** Workspace Settings → Domains: a service at its owner's own domain, proven by DNS, with a certificate. */
export function DomainsTab({ workspace }: { workspace: string }) {
  return (
    <div className="space-y-6">
      <AddDomainForm workspace={workspace} />
      <section aria-labelledby="custom-domains-heading" className="space-y-3">
        <div>
          <h2 id="custom-domains-heading" className="text-lg font-semibold text-zinc-900">
            Your domains
          </h2>
          <p className="mt-1 text-sm text-zinc-600">
            Pending DNS → Verified → Issuing certificate → Active. A domain is served only once its DNS proves
            it is yours.
          </p>
        </div>
        <DomainList workspace={workspace} />
      </section>
    </div>
  );
}
