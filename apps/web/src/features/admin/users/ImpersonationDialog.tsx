import type { ImpersonationResult } from '@slipway/contract';
import { Copy } from 'lucide-react';
import { useState } from 'react';
import { Alert, Button, Dialog } from '../../../components/ui';
import { fullName } from '../adminFormat';

/** The impersonation token modal: the token, when it expires, Copy Token and Close. */
export function ImpersonationDialog({
  result,
  onClose,
}: {
  result: ImpersonationResult | null;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState<'token' | 'failed' | null>(null);

  async function copy() {
    if (!result) return;
    try {
      await navigator.clipboard.writeText(result.impersonation_token);
      setCopied('token');
    } catch {
      setCopied('failed');
    }
  }

  function close() {
    setCopied(null);
    onClose();
  }

  const name = result ? fullName(result.user) : '';
  const minutes = result ? Math.max(1, Math.round(result.expires_in / 60)) : 0;
  return (
    <Dialog
      open={result !== null}
      onClose={close}
      title="Impersonation Token"
      description={result ? `Sign in as @${result.user.login}${name ? ` (${name})` : ''}` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
          <Button icon={Copy} onClick={copy}>
            Copy Token
          </Button>
        </>
      }
    >
      {result && (
        <div className="space-y-4">
          <div>
            <p className="mb-1.5 text-sm font-medium text-zinc-800">Token</p>
            <code
              data-testid="impersonation-token"
              className="block rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-xs break-all text-zinc-900 select-all"
            >
              {result.impersonation_token}
            </code>
          </div>
          <p className="text-sm text-zinc-600">
            Expires in {result.expires_in} seconds (about {minutes} {minutes === 1 ? 'minute' : 'minutes'}).
            It can be used once.
          </p>
          {result.impersonation_url && (
            <p className="text-sm text-zinc-600">
              Sign-in link (opening it signs this browser in as the user):{' '}
              <a
                href={result.impersonation_url}
                target="_blank"
                rel="noreferrer"
                className="font-medium break-all text-accent-700 underline"
              >
                {result.impersonation_url}
              </a>
            </p>
          )}
          {copied === 'token' && <Alert tone="success">Token copied to the clipboard</Alert>}
          {copied === 'failed' && (
            <Alert tone="warning">Could not copy: select the token and copy it by hand</Alert>
          )}
        </div>
      )}
    </Dialog>
  );
}
