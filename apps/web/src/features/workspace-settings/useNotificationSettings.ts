import type { SinkType } from '@slipway/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  alertConfigKey,
  type EditableAlertConfig,
  type EditableSink,
  saveAlertConfig,
  testSink,
  useAlertConfig,
} from '../../api/alertConfig';
import { isNetworkError, serverError } from '../../api/errors';
import type { Loadable } from '../../components/AsyncSection';
import { SAVE_BLOCKED_MESSAGE, sinkProblem } from './sinkFields';

/** Why the configuration could not be read, in the spec's words. */
export const configLoadError = (error: unknown) =>
  isNetworkError(error) ? 'Error loading configuration' : 'Failed to load alert configuration';

const EMPTY_CONFIG: EditableAlertConfig = { sinks: [], rules: [], global_enabled: true };

/** The alert configuration being edited; changes stay local until save(). */
export function useNotificationSettings(workspace: string) {
  const queryClient = useQueryClient();
  const query = useAlertConfig(workspace);
  // The user's changes since the last load or save, for this workspace only.
  const [edited, setEdited] = useState<{ workspace: string; config: EditableAlertConfig } | null>(null);
  const draft = (edited?.workspace === workspace ? edited.config : query.data) ?? EMPTY_CONFIG;
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [showErrors, setShowErrors] = useState(false);
  const [testing, setTesting] = useState<number | null>(null);

  // Once read, the draft is edited here: a failed refresh later does not take it away.
  const load: Loadable<EditableAlertConfig> =
    query.data !== undefined
      ? { isPending: false, isError: false, data: query.data }
      : query.isError
        ? { isPending: false, isError: true, error: query.error }
        : { isPending: true, isError: false };

  const edit = (next: EditableAlertConfig) => {
    setEdited({ workspace, config: next });
    setSaved(false);
  };

  const setGlobalEnabled = (global_enabled: boolean) => edit({ ...draft, global_enabled });
  const updateSink = (index: number, sink: EditableSink) =>
    edit({ ...draft, sinks: draft.sinks.map((item, i) => (i === index ? sink : item)) });
  const deleteSink = (index: number) => edit({ ...draft, sinks: draft.sinks.filter((_, i) => i !== index) });
  /** Spec: a new channel is enabled, with an empty config, and persisted only on Save. */
  const addSink = (sink_type: SinkType) =>
    edit({ ...draft, sinks: [...draft.sinks, { sink_type, enabled: true, config: {} }] });

  const save = async (): Promise<boolean> => {
    setSaved(false);
    if (draft.sinks.some((sink) => sinkProblem(sink))) {
      setShowErrors(true);
      setSaveError(SAVE_BLOCKED_MESSAGE);
      return false;
    }
    setSaving(true);
    setSaveError(null);
    try {
      queryClient.setQueryData(alertConfigKey(workspace), await saveAlertConfig(workspace, draft));
      setEdited(null);
      setSaved(true);
      setShowErrors(false);
      return true;
    } catch (error) {
      setSaveError(
        isNetworkError(error)
          ? 'Error saving configuration'
          : (serverError(error) ?? 'Failed to save configuration'),
      );
      return false;
    } finally {
      setSaving(false);
    }
  };

  /** Spec: test failures are only logged. */
  const test = async (index: number) => {
    const sink = draft.sinks[index];
    if (!sink) return;
    setTesting(index);
    try {
      await testSink(workspace, sink.sink_type, sink.config);
    } catch (error) {
      console.error('Notification test failed', error);
    } finally {
      setTesting(null);
    }
  };

  return {
    load,
    draft,
    saving,
    saveError,
    saved,
    showErrors,
    testing,
    setGlobalEnabled,
    updateSink,
    deleteSink,
    addSink,
    save,
    test,
  };
}

export type NotificationSettings = ReturnType<typeof useNotificationSettings>;
