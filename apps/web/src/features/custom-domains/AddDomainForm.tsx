import { Plus } from 'lucide-react';
import type { FormEvent } from 'react';
import { useAddCustomDomain } from '../../api/customDomains';
import { useWorkspaceDetails } from '../../api/workspaces';
import { SettingsCard, SettingsForm } from '../../components/settings/SettingsCard';
import { CheckboxField, Input, Select } from '../../components/ui';
import { useCheckedForm } from '../../components/useCheckedForm';
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
  const add = useAddCustomDomain(workspace);
  const { form, change, field, submit } = useCheckedForm<DomainForm, DomainFormProblems>(
    () => emptyDomainForm(''),
    add,
  );
  // The only service is chosen for the user; with several, until they pick one, the first is.
  const service = form.service || services[0]?.value || '';
  const serviceUrl = serviceUrls[service];

  const addDomain = (event: FormEvent) =>
    submit(event, (typed) => {
      const request = domainRequest({ ...typed, service });
      if ('problems' in request) return request;
      const send = async () => {
        await add.mutateAsync(request.input);
        return emptyDomainForm(service);
      };
      return { send };
    });

  const noServices = details.isSuccess && services.length === 0;
  return (
    <SettingsCard
      title="Add a domain"
      description="Serve one of this workspace's services at your own domain, over HTTPS with a certificate of its own."
    >
      <SettingsForm
        state={{
          submit: addDomain,
          busy: add.isPending,
          error: add.error,
          justSaved: false,
          canSubmit: services.length > 0,
        }}
        submitLabel="Add Domain"
        submitIcon={Plus}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Input
            label="Domain"
            placeholder="shop.example.com"
            autoComplete="off"
            spellCheck={false}
            hint="A subdomain or an apex domain; an internationalised name works too."
            {...field('domain')}
          />
          <Select
            label="Service"
            options={services}
            {...field('service')}
            value={service}
            disabled={services.length === 0}
            hint={
              details.isError
                ? details.error.message
                : noServices
                  ? 'No service of this workspace has a URL yet: deploy one that publishes a port.'
                  : serviceUrl
                    ? `Now at ${serviceUrl}`
                    : undefined
            }
          />
        </div>
        <CheckboxField
          label="Also redirect www"
          hint={redirectWwwHint(form.domain)}
          checked={form.redirectWww}
          onChange={(redirectWww) => change({ redirectWww })}
        />
      </SettingsForm>
    </SettingsCard>
  );
}
