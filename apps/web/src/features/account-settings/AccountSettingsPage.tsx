import type { CreatedApiToken } from '@slipway/contract';
import { KeyRound, UserCog } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { TabButton } from '../../components/ui';
import { CreateTokenForm } from './CreateTokenForm';
import { NewTokenPanel } from './NewTokenPanel';
import { TokenTable } from './TokenTable';

/** Account Settings: the signed-in person's own settings. One tab for now, API Tokens. */
export function AccountSettingsPage() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <PageHeader icon={UserCog} title="Account Settings" />
      <div role="tablist" aria-label="Account settings" className="mt-6 flex gap-1 border-b border-zinc-200">
        <TabButton
          selected
          id="account-tab-api-tokens"
          aria-controls="account-panel-api-tokens"
          className="inline-flex items-center gap-2 px-4 py-2"
        >
          <KeyRound className="h-4 w-4" aria-hidden="true" />
          API Tokens
        </TabButton>
      </div>
      <div
        id="account-panel-api-tokens"
        role="tabpanel"
        aria-labelledby="account-tab-api-tokens"
        className="mt-6"
      >
        <ApiTokensTab />
      </div>
    </div>
  );
}

function ApiTokensTab() {
  // Held only in this component's state: leaving the page forgets the token for good.
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  return (
    <div className="space-y-6">
      {created && <NewTokenPanel created={created} onDone={() => setCreated(null)} />}
      <CreateTokenForm onCreated={setCreated} />
      <TokenTable />
    </div>
  );
}
