import type { Backup } from '@slipway/contract';
import { ArchiveRestore } from 'lucide-react';
import { useState } from 'react';
import { backupTime, inWords, partName, restoreQuestion } from '../../components/backups/backupView';
import { Button, Dialog, Radio } from '../../components/ui';

/** Every service of the backup, or one of them. */
const ALL = '';

/**
 * What to restore (every service of the backup, or one of them) and, in one sentence that follows the choice,
 * exactly what that overwrites; Restore starts it. One dialog rather than a menu and then a confirmation: the
 * sentence under the choice shows what each choice overwrites before anything is pressed.
 */
export function RestoreDialog({
  backup,
  onRestore,
  onClose,
}: {
  /** The backup to restore; the dialog is closed when there is none. */
  backup: Backup | null;
  onRestore: (backup: Backup, service: string | undefined) => void;
  onClose: () => void;
}) {
  const [service, setService] = useState(ALL);
  if (!backup) return null;
  const chosen = service === ALL ? undefined : service;
  const several = backup.parts.length > 1;
  return (
    <Dialog
      open
      onClose={onClose}
      title="Restore backup"
      description={`The backup from ${backupTime(backup)}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" icon={ArchiveRestore} onClick={() => onRestore(backup, chosen)}>
            Restore
          </Button>
        </>
      }
    >
      <div className="space-y-4 text-sm text-zinc-700">
        {several && (
          <fieldset className="space-y-2">
            <legend className="font-medium text-zinc-900">What to restore</legend>
            <Radio
              name="restore-scope"
              checked={service === ALL}
              onChange={() => setService(ALL)}
              label={`All services: ${inWords(backup.parts.map((part) => part.service))}`}
            />
            {backup.parts.map((part) => (
              <Radio
                name="restore-scope"
                key={part.service}
                checked={service === part.service}
                onChange={() => setService(part.service)}
                label={`Only ${partName(part)}`}
              />
            ))}
          </fieldset>
        )}
        <p className="leading-relaxed" data-testid="restore-question">
          {restoreQuestion(backup, chosen)}
        </p>
      </div>
    </Dialog>
  );
}
