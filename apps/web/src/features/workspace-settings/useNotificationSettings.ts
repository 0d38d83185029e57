import type { SinkType } from '@slipway/contract';
import { useCallback, useEffect, useState } from 'react';
import {
  type EditableAlertConfig,
  type EditableSink,
  fetchAlertConfig,
  saveAlertConfig,
  testSink,
} from '../../api/alertConfig';
import { isNetworkError, serverError } from '../../api/errors';
import { SAVE_BLOCKED_MESSAGE, sinkProblem } from './sinkFields';

export type LoadState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready' };

/** The alert configuration being edited; changes stay local until save(). */
export function useNotificationSettings(workspace: string) {
  const [load, setLoad] = useState<LoadState>({ status: 'loading' });
  const [draft, setDraft] = useState<EditableAlertConfig>({ sinks: [], rules: [], global_enabled: true });
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [showErrors, setShowErrors] = useState(false);
  const [testing, setTesting] = useState<number | null>(null);

  const reload = useCallback(async () => {
    setLoad({ status: 'loading' });
    try {
      setDraft(await fetchAlertConfig(workspace));
      setLoad({ status: 'ready' });
    } catch (error) {
      setLoad({
        status: 'error',
        message: isNetworkError(error) ? 'Error loading configuration' : 'Failed to load alert configuration',
      });
    }
  }, [workspace]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const edit = (next: EditableAlertConfig) => {
    setDraft(next);
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
      setDraft(await saveAlertConfig(workspace, draft));
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
    reload,
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
