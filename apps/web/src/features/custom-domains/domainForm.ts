import { type AddDomain, addDomainSchema, normaliseDomain } from '@slipway/contract';

export interface DomainForm {
  domain: string;
  service: string;
  redirectWww: boolean;
}

export type DomainFormProblems = Partial<Record<'domain' | 'service', string>>;

export const emptyDomainForm = (service: string): DomainForm => ({ domain: '', service, redirectWww: false });

/**
 * The request for the form, or what to fix, in the server's own words: the contract's schema checks both
 * (a name the server would refuse is refused here with the same sentence).
 */
export function domainRequest(form: DomainForm): { input: AddDomain } | { problems: DomainFormProblems } {
  if (!form.domain.trim()) return { problems: { domain: 'Enter a domain name' } };
  const parsed = addDomainSchema.safeParse({
    domain: form.domain,
    service: form.service,
    redirect_www: form.redirectWww,
  });
  if (parsed.success) return { input: parsed.data };
  const problems: DomainFormProblems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'domain' || field === 'service') && !problems[field]) problems[field] = issue.message;
  }
  return { problems };
}

/** The name `redirect_www` answers with a redirect: `www.` added, or for a `www.` name, its apex. */
export function wwwCounterpart(domain: string): string {
  const rest = domain.slice('www.'.length);
  return domain.startsWith('www.') && rest.includes('.') ? rest : `www.${domain}`;
}

/** What "Also redirect www" does, for the name typed so far (as typed, so an IDN stays readable). */
export function redirectWwwHint(typed: string): string {
  const domain = typed.trim().toLowerCase().replace(/\.$/, '');
  if (!normaliseDomain(domain)) {
    return 'For shop.example.com, www.shop.example.com redirects to it; for www.example.com, example.com does.';
  }
  return `Visitors to ${wwwCounterpart(domain)} are redirected to ${domain}.`;
}
