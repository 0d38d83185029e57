import type { ApiToken } from '@slipway/contract';
import { KeySquare, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useApiTokens, useRevokeApiToken } from '../../api/apiTokens';
import { actionsColumn, DataTable } from '../../components/DataTable';
import { useDialogs } from '../../components/DialogsProvider';
import { EmptyState } from '../../components/EmptyState';
import { RowButton } from '../../components/RowButton';
import { Alert, Badge, Card, CardHeader, Spinner } from '../../components/ui';
import { formatDate } from '../../lib/dates';
import { expiresText, lastUsedText, workspacesText } from './tokenForm';

/** The user's tokens (never the tokens themselves), each with Revoke behind a confirmation. */
export function TokenTable() {
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const dialogs = useDialogs();
  const [problem, setProblem] = useState<string | null>(null);

  async function confirmRevoke(token: ApiToken) {
    const ok = await dialogs.confirm(
      `Revoke ${token.name} (${token.prefix}…)? Scripts and CI jobs using it are refused from their next request.`,
      { title: 'Revoke token', confirmLabel: 'Revoke', destructive: true },
    );
    if (!ok) return;
    setProblem(null);
    try {
      await revoke.mutateAsync(token);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : `Could not revoke ${token.name}`);
    }
  }

  const list = tokens.data ?? [];
  let body: ReactNode;
  if (tokens.isLoading) {
    body = (
      <div role="status" className="flex items-center gap-3 px-6 py-8 text-sm text-zinc-500">
        <Spinner size="sm" /> Loading tokens...
      </div>
    );
  } else if (tokens.isError) {
    body = (
      <Alert tone="error" className="m-6">
        {tokens.error.message}
      </Alert>
    );
  } else if (list.length === 0) {
    body = (
      <EmptyState
        className="m-6 py-10"
        icon={KeySquare}
        title="No tokens yet"
        description="Create one above for a script or a CI job."
      />
    );
  } else {
    body = (
      <DataTable
        label="API tokens"
        look="panel"
        rows={list}
        rowKey={(token) => token.id}
        rowAttributes={(token) => ({ 'data-token-id': token.id })}
        columns={[
          { header: 'Name', cell: (token) => token.name, className: 'font-medium text-zinc-900' },
          { header: 'Prefix', cell: (token) => `${token.prefix}…`, className: 'font-mono text-xs' },
          {
            header: 'Scopes',
            cell: (token) => (
              <div className="flex flex-wrap gap-1">
                {token.scopes.map((scope) => (
                  <Badge key={scope} tone="accent">
                    {scope}
                  </Badge>
                ))}
              </div>
            ),
          },
          { header: 'Workspaces', cell: workspacesText },
          { header: 'Created', cell: (token) => formatDate(token.created_at) },
          { header: 'Expires', cell: (token) => expiresText(token) },
          { header: 'Last used', cell: lastUsedText },
          actionsColumn((token: ApiToken) => (
            <RowButton
              label="Revoke"
              of={token.name}
              icon={Trash2}
              busy={revoke.isPending && revoke.variables?.id === token.id}
              onClick={() => void confirmRevoke(token)}
            />
          )),
        ]}
      />
    );
  }

  return (
    <Card>
      <CardHeader
        title="Your tokens"
        description="A token is shown once, when it is created; here you see its first characters."
      />
      {problem && (
        <Alert tone="error" className="mx-6 mt-4">
          {problem}
        </Alert>
      )}
      <div className="px-3 pb-2">{body}</div>
    </Card>
  );
}
