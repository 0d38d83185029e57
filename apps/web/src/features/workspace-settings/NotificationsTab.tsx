import { BellOff, Plus } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { Button, Card } from '../../components/ui';
import { AddChannelDialog, TelegramHelp } from './AddChannelDialog';
import { SinkCard } from './SinkCard';
import type { NotificationSettings } from './useNotificationSettings';

export function NotificationsTab({ settings }: { settings: NotificationSettings }) {
  const [adding, setAdding] = useState(false);
  const { draft } = settings;
  const hasTelegram = draft.sinks.some((sink) => sink.sink_type === 'telegram');

  return (
    <div className="space-y-6">
      <Card className="flex flex-wrap items-center justify-between gap-4 p-5">
        <div>
          <h2 className="font-semibold text-zinc-900">Alert notifications</h2>
          <p className="mt-1 text-sm text-zinc-600">
            Crash and health alerts for this workspace go to every enabled channel while this is on.
          </p>
        </div>
        <label className="flex items-center gap-3 text-sm font-medium text-zinc-800">
          <span>{draft.global_enabled ? 'On' : 'Off'}</span>
          <button
            type="button"
            role="switch"
            aria-checked={draft.global_enabled}
            aria-label="Enable notifications"
            onClick={() => settings.setGlobalEnabled(!draft.global_enabled)}
            className={`relative inline-flex h-6 w-11 items-center rounded-full transition-colors ${draft.global_enabled ? 'bg-accent-600' : 'bg-zinc-300'}`}
          >
            <span
              className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${draft.global_enabled ? 'translate-x-5' : 'translate-x-0.5'}`}
            />
          </button>
        </label>
      </Card>

      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold text-zinc-900">Channels</h2>
        <Button variant="secondary" onClick={() => setAdding(true)} icon={Plus}>
          Add Channel
        </Button>
      </div>

      {draft.sinks.length === 0 ? (
        <EmptyState
          icon={BellOff}
          title="No notification channels"
          description="Add an email address or a Telegram chat to hear about crashes."
        />
      ) : (
        <div className="space-y-4">
          {draft.sinks.map((sink, index) => (
            <SinkCard
              key={`${sink.id ?? 'new'}-${index}`}
              sink={sink}
              globalEnabled={draft.global_enabled}
              showErrors={settings.showErrors}
              testing={settings.testing === index}
              onChange={(next) => settings.updateSink(index, next)}
              onDelete={() => settings.deleteSink(index)}
              onTest={() => void settings.test(index)}
            />
          ))}
        </div>
      )}
      {hasTelegram && <TelegramHelp />}

      <AddChannelDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdd={(type) => {
          settings.addSink(type);
          setAdding(false);
        }}
      />
    </div>
  );
}
