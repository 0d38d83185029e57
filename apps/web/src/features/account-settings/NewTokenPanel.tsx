import type { CreatedApiToken } from '@slipway/contract';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { Alert, Button } from '../../components/ui';

export const COPY_NOW = "Copy this token now. You won't be able to see it again.";

/** The new token, shown once: the server keeps only its hash, and the page forgets it when dismissed. */
export function NewTokenPanel({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  const [copyFailed, setCopyFailed] = useState(false);

  return (
    <section
      aria-label="New API token"
      className="rounded-xl border border-emerald-200 bg-emerald-50 px-5 py-4 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <KeyRound className="mt-0.5 h-5 w-5 shrink-0 text-emerald-700" aria-hidden="true" />
        <div className="min-w-0 flex-1 space-y-3">
          <div>
            <h2 className="font-semibold text-emerald-950">Token {created.api_token.name} created</h2>
            <p className="mt-0.5 text-sm font-medium text-emerald-900">{COPY_NOW}</p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <code
              data-testid="new-api-token"
              className="w-full min-w-0 rounded-lg border border-emerald-200 sm:w-auto sm:flex-1 bg-white px-3 py-2 font-mono text-sm break-all text-zinc-900 select-all"
            >
              {created.token}
            </code>
            <CopyButton text={created.token} label="Copy" onCopied={(copied) => setCopyFailed(!copied)} />
            <Button variant="secondary" onClick={onDone}>
              Done
            </Button>
          </div>
          {copyFailed && <Alert tone="warning">Could not copy: select the token and copy it by hand</Alert>}
          <p className="text-xs text-emerald-900">
            Send it as <code className="font-mono">Authorization: Bearer …</code> with each API request.
          </p>
        </div>
      </div>
    </section>
  );
}
