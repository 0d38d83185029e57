import type { EnvVariable } from '@slipway/contract';
import { useState } from 'react';
import { useDialogs } from '../../components/DialogsProvider';
import { Button, Dialog } from '../../components/ui';
import { EnvInfoPanel } from './EnvInfoPanel';
import { EnvVariablesEditor } from './EnvVariablesEditor';
import { useEnvRows } from './useEnvRows';

interface EnvVariablesModalProps {
  open: boolean;
  title?: string;
  onCancel: () => void;
  /** Receives the complete rows; resolve when stored (the modal shows busy meanwhile). */
  onSave: (variables: EnvVariable[]) => Promise<void> | void;
}

/** The environment variables editor as a modal with Cancel and Save Variables. */
export function EnvVariablesModal({
  open,
  title = 'Add Environment Variables',
  onCancel,
  onSave,
}: EnvVariablesModalProps) {
  if (!open) return null;
  return <EnvVariablesModalBody title={title} onCancel={onCancel} onSave={onSave} />;
}

function EnvVariablesModalBody({
  title,
  onCancel,
  onSave,
}: Omit<EnvVariablesModalProps, 'open'> & { title: string }) {
  const dialogs = useDialogs();
  const controller = useEnvRows();
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (controller.variables.length === 0) {
      await dialogs.alert('Please add at least one environment variable');
      return;
    }
    setSaving(true);
    try {
      await onSave(controller.variables);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open
      size="lg"
      title={title}
      onClose={onCancel}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={saving} disabled={controller.uploading}>
            {controller.uploading ? 'Uploading...' : 'Save Variables'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <EnvInfoPanel />
        <EnvVariablesEditor controller={controller} disabled={saving} />
      </div>
    </Dialog>
  );
}
