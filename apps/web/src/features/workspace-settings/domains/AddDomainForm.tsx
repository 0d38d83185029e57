import { Plus } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useAddCustomDomain } from '../../../api/customDomains';
import { useWorkspaceDetails } from '../../../api/workspaces';
import { Alert, Button, Card, CardBody, CardHeader, Input, Select } from '../../../components/ui';
import {
  type DomainForm,
  type DomainFormProblems,
  domainRequest,
  emptyDomainForm,
  redirectWwwHint,
} from './domainForm';
import { serviceChoices } from './domainView';

/** Domain, service and the www redirect; the contract's schema checks the name before the server does. */
export function AddDomainForm({ workspace }: { workspace: string }) {
  const details = useWorkspaceDetails(workspace);
  const serviceUrls = details.data?.service_urls ?? {};
  const services = serviceChoices(serviceUrls);
  const [form, setForm] = useState<DomainForm>(emptyDomainForm(''));
  const [problems, setProblems] = useState<DomainFormProblems>({});
  const add = useAddCustomDomain(workspace);
  const wwwHintId = useId();
  // The only service is chosen for the user; with several, until they pick one, the first is.
  const service = form.service || services[0]?.value || '';
  const serviceUrl = serviceUrls[service];

  async function submit(event: FormEvent) {
    event.preventDefault();
    const request = domainRequest({ ...form, service });
    if ('problems' in request) {
      setProblems(request.problems);
      add.reset();
      return;
    }
    setProblems({});
    try {
      await add.mutateAsync(request.input);
      setForm(emptyDomainForm(service));
    } catch {
      // Shown below from the mutation's error: the server's sentence.
    }
  }

  const noServices = details.isSuccess && services.length === 0;
  return (
    <Card>
      <CardHeader
        title="Add a domain"
        description="Serve one of this workspace's services at your own domain, over HTTPS with a certificate of its own."
      />
      <CardBody>
        <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
          <div className="grid gap-4 sm:grid-cols-2">
            <Input
              label="Domain"
              placeholder="shop.example.com"
              autoComplete="off"
              spellCheck={false}
              value={form.domain}
              error={problems.domain}
              hint="A subdomain or an apex domain; an internationalised name works too."
              onChange={(event) => setForm({ ...form, domain: event.target.value })}
            />
            <Select
              label="Service"
              options={services}
              value={service}
              disabled={services.length === 0}
              error={problems.service}
              hint={
                details.isError
                  ? details.error.message
                  : noServices
                    ? 'No service of this workspace has a URL yet: deploy one that publishes a port.'
                    : serviceUrl
                      ? `Now at ${serviceUrl}`
                      : undefined
              }
              onChange={(event) => setForm({ ...form, service: event.target.value })}
            />
          </div>
          <div className="rounded-lg border border-zinc-200 px-3 py-2.5 has-[:checked]:border-accent-300 has-[:checked]:bg-accent-50/40">
            <label className="flex cursor-pointer items-center gap-3 text-sm font-medium text-zinc-900">
              <input
                type="checkbox"
                className="h-4 w-4 shrink-0 rounded border-zinc-300 accent-accent-600"
                checked={form.redirectWww}
                onChange={(event) => setForm({ ...form, redirectWww: event.target.checked })}
                aria-describedby={wwwHintId}
              />
              Also redirect www
            </label>
            <p id={wwwHintId} className="mt-0.5 pl-7 text-xs text-zinc-600">
              {redirectWwwHint(form.domain)}
            </p>
          </div>
          {add.error && <Alert tone="error">{add.error.message}</Alert>}
          <div className="flex justify-end">
            <Button type="submit" icon={Plus} loading={add.isPending} disabled={services.length === 0}>
              Add Domain
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
