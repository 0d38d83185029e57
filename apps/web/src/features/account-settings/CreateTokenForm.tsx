import type { CreatedApiToken, TokenScope } from '@slipway/contract';
import { Plus } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useCreateApiToken } from '../../api/apiTokens';
import { useUserWorkspaces } from '../../api/workspaces';
import { Alert, Button, Card, CardBody, CardHeader, Input, Select } from '../../components/ui';
import {
  EMPTY_FORM,
  EXPIRY_CHOICES,
  type ExpiryChoice,
  NAME_MAX_LENGTH,
  SCOPE_EXPLANATIONS,
  SCOPES,
  type TokenForm,
  toggled,
  tokenRequest,
} from './tokenForm';

const legendClasses = 'text-sm font-medium text-zinc-800';
const checkboxClasses = 'h-4 w-4 shrink-0 rounded border-zinc-300 accent-accent-600';

/** Name, expiry, scopes and workspaces; hands the created token up to be shown once. */
export function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedApiToken) => void }) {
  const [form, setForm] = useState<TokenForm>(EMPTY_FORM);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateApiToken();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const request = tokenRequest(form);
    if ('problem' in request) {
      setProblem(request.problem);
      return;
    }
    setProblem(null);
    try {
      onCreated(await create.mutateAsync(request.input));
      setForm(EMPTY_FORM);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'Could not create the token');
    }
  }

  return (
    <Card>
      <CardHeader
        title="Create a token"
        description="For scripts and CI: a token acts as you, limited to the scopes and workspaces you choose."
      />
      <CardBody>
        <form className="space-y-5" onSubmit={(event) => void submit(event)} noValidate>
          <div className="grid gap-4 sm:grid-cols-2">
            <Input
              label="Name"
              required
              maxLength={NAME_MAX_LENGTH}
              placeholder="e.g. GitHub Actions"
              value={form.name}
              onChange={(event) => setForm({ ...form, name: event.target.value })}
            />
            <Select
              label="Expiry"
              options={EXPIRY_CHOICES}
              value={form.expiry}
              onChange={(event) => setForm({ ...form, expiry: event.target.value as ExpiryChoice })}
            />
          </div>

          <fieldset className="space-y-2">
            <legend className={legendClasses}>Scopes</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {SCOPES.map((scope) => (
                <ScopeCheckbox
                  key={scope}
                  scope={scope}
                  checked={form.scopes.includes(scope)}
                  onChange={(on) => setForm({ ...form, scopes: toggled(form.scopes, scope, on, SCOPES) })}
                />
              ))}
            </div>
            <p className="text-xs text-zinc-500">
              deploy and secrets:read include read; write includes deploy and read.
            </p>
          </fieldset>

          <WorkspaceChoice
            picked={form.workspaces}
            onChange={(workspaces) => setForm({ ...form, workspaces })}
          />

          {problem && <Alert tone="error">{problem}</Alert>}
          <div className="flex justify-end">
            <Button type="submit" icon={Plus} loading={create.isPending}>
              Create Token
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

function ScopeCheckbox({
  scope,
  checked,
  onChange,
}: {
  scope: TokenScope;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-zinc-200 px-3 py-2.5 hover:bg-zinc-50 has-[:checked]:border-accent-300 has-[:checked]:bg-accent-50/40">
      <input
        type="checkbox"
        className={`mt-0.5 ${checkboxClasses}`}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>
        <span className="block font-mono text-sm font-medium text-zinc-900">{scope}</span>
        <span className="block text-xs text-zinc-600">{SCOPE_EXPLANATIONS[scope]}</span>
      </span>
    </label>
  );
}

/** The user's workspaces to restrict the token to; none picked reaches them all. */
function WorkspaceChoice({
  picked,
  onChange,
}: {
  picked: readonly string[];
  onChange: (workspaces: string[]) => void;
}) {
  const workspaces = useUserWorkspaces();
  const names = (workspaces.data ?? []).map((workspace) => workspace.workspace_name);

  let body: ReactNode;
  if (workspaces.isLoading) body = <p className="text-sm text-zinc-500">Loading your workspaces...</p>;
  else if (workspaces.isError) body = <Alert tone="warning">{workspaces.error.message}</Alert>;
  else if (names.length === 0) body = <p className="text-sm text-zinc-500">You have no workspaces yet.</p>;
  else {
    body = (
      <div className="flex flex-wrap gap-2">
        {names.map((name) => (
          <label
            key={name}
            className="flex cursor-pointer items-center gap-2 rounded-lg border border-zinc-200 px-3 py-1.5 text-sm text-zinc-800 hover:bg-zinc-50"
          >
            <input
              type="checkbox"
              className={checkboxClasses}
              checked={picked.includes(name)}
              onChange={(event) => onChange(toggled(picked, name, event.target.checked, names))}
            />
            {name}
          </label>
        ))}
      </div>
    );
  }

  return (
    <fieldset className="space-y-2">
      <legend className={legendClasses}>Workspaces</legend>
      <p className="text-xs text-zinc-500">
        Optional. With none picked, the token reaches all of your workspaces, including ones you create later.
      </p>
      {body}
    </fieldset>
  );
}
