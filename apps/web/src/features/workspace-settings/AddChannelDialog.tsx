import { SINK_TYPES, type SinkType } from '@slipway/contract';
import { useState } from 'react';
import { Button, Dialog, Select } from '../../components/ui';
import { SINK_TYPE_LABELS } from './sinkFields';

export function AddChannelDialog({
  open,
  onClose,
  onAdd,
}: {
  open: boolean;
  onClose: () => void;
  onAdd: (type: SinkType) => void;
}) {
  const [type, setType] = useState<SinkType>('email');
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Add Channel"
      description="The channel is saved with Save Changes."
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onAdd(type)}>Add Channel</Button>
        </>
      }
    >
      <Select
        label="Channel type"
        value={type}
        onChange={(event) => setType(event.target.value as SinkType)}
        options={SINK_TYPES.map((value) => ({ value, label: SINK_TYPE_LABELS[value] }))}
      />
    </Dialog>
  );
}

export function TelegramHelp() {
  return (
    <div className="rounded-lg border border-sky-200 bg-sky-50 p-4 text-sm text-sky-900">
      <p className="font-medium">Setting up Telegram</p>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        <li>Open Telegram and start the platform bot once (send it /start), so it may message you.</li>
        <li>Get your numeric chat ID from an ID-lookup bot (for example @userinfobot).</li>
        <li>
          Put it in <code className="font-mono">chat_id</code>, or use a{' '}
          <code className="font-mono">chat_ids</code> array (e.g.{' '}
          <code className="font-mono">["123", "456"]</code>) to notify several chats.
        </li>
      </ol>
    </div>
  );
}
