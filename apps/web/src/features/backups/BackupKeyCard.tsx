import type { BackupKey } from '@slipway/contract';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useExportBackupKey } from '../../api/backups';
import { CopyButton } from '../../components/CopyButton';
import { SettingsCard } from '../../components/settings/SettingsCard';
import { Alert, Button } from '../../components/ui';

export const KEY_SHOWN_ONCE =
  "Keep this key somewhere Slipway's machine is not. It is shown once: close it and export again to see it.";

/**
 * Disaster recovery without Slipway: the repository's location and password, exported on demand (audited by the
 * server), shown once and forgotten when closed, with the restic commands that read the backups.
 */
export function BackupKeyCard({ workspace }: { workspace: string }) {
  const exportKey = useExportBackupKey(workspace);
  const [key, setKey] = useState<BackupKey | undefined>();

  return (
    <SettingsCard
      title="Backup key"
      icon={KeyRound}
      description="The backups are encrypted with a key of this workspace. If Slipway or its data directory is lost, the repository and this key are all plain restic needs to restore them."
    >
      {key ? (
        <div className="space-y-3" data-testid="backup-key">
          <p className="text-sm font-medium text-zinc-900">{KEY_SHOWN_ONCE}</p>
          <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-zinc-500">Repository</dt>
            <dd className="break-all font-mono text-zinc-900">{key.repository}</dd>
            <dt className="text-zinc-500">Password</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <code className="min-w-0 break-all rounded border border-zinc-200 bg-zinc-50 px-2 py-1 font-mono select-all">
                {key.password}
              </code>
              <CopyButton text={key.password} label="Copy" size="sm" variant="secondary" />
            </dd>
            <dt className="text-zinc-500">Safety backups</dt>
            <dd className="break-all font-mono text-zinc-900">{key.safety_repositories}</dd>
          </dl>
          <div>
            <p className="text-sm text-zinc-600">
              With the password in a file named by RESTIC_PASSWORD_FILE:
            </p>
            <pre className="mt-1 overflow-x-auto rounded-lg bg-zinc-900 p-3 text-xs text-zinc-100">
              {key.commands.join('\n')}
            </pre>
          </div>
          <Button variant="secondary" onClick={() => setKey(undefined)}>
            Done
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            icon={KeyRound}
            variant="secondary"
            loading={exportKey.isPending}
            onClick={() => exportKey.mutate(undefined, { onSuccess: setKey })}
          >
            Export Backup Key
          </Button>
          <span className="text-sm text-zinc-500">Every export is written to the audit log.</span>
        </div>
      )}
      {exportKey.error && <Alert tone="error">{exportKey.error.message}</Alert>}
    </SettingsCard>
  );
}
