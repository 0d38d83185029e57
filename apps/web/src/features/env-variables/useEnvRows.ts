import { type ClipboardEvent, type KeyboardEvent, useCallback, useRef, useState } from 'react';
import { useDialogs } from '../../components/DialogsProvider';
import { envPaste, isAcceptedEnvFile, parseEnvText } from '../../lib/envFile';
import { countOf, NOUNS } from '../../lib/plural';
import {
  applyPaste,
  canLockByKeyboard,
  completeVariables,
  type EnvRow,
  emptyRow,
  isComplete,
  isEmpty,
  mergeUploaded,
  removeRow,
} from './envRows';

/** Delay before the new row's key field takes focus. */
export const FOCUS_DELAY_MS = 50;

/** The editor's rows and every rule that changes them: typing, locking, paste, files, removal. */
export function useEnvRows() {
  const dialogs = useDialogs();
  const [rows, setRows] = useState<EnvRow[]>(() => [emptyRow()]);
  const [uploading, setUploading] = useState(false);
  const keyInputs = useRef(new Map<string, HTMLInputElement>());

  const keyRef = useCallback(
    (id: string) => (element: HTMLInputElement | null) => {
      if (element) keyInputs.current.set(id, element);
      else keyInputs.current.delete(id);
    },
    [],
  );

  const update = (id: string, patch: Partial<EnvRow>) =>
    setRows((current) => current.map((row) => (row.id === id ? { ...row, ...patch } : row)));

  const addRow = () => {
    const row = emptyRow();
    setRows((current) => [...current, row]);
    setTimeout(() => keyInputs.current.get(row.id)?.focus(), FOCUS_DELAY_MS);
  };

  /** Tab or Enter in the last row's value locks it and opens a new row, when both have 2+ characters. */
  const onValueKeyDown = (row: EnvRow) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' && !(event.key === 'Tab' && !event.shiftKey)) return;
    const isLast = rows[rows.length - 1]?.id === row.id;
    if (!isLast || row.isReadOnly || !canLockByKeyboard(row)) return;
    event.preventDefault();
    const next = emptyRow();
    setRows((current) => [...current.map((r) => (r.id === row.id ? { ...r, isReadOnly: true } : r)), next]);
    setTimeout(() => keyInputs.current.get(next.id)?.focus(), FOCUS_DELAY_MS);
  };

  const save = (row: EnvRow) => {
    if (isComplete(row)) update(row.id, { isReadOnly: true });
  };

  const onPaste = (event: ClipboardEvent) => {
    const pairs = envPaste(event.clipboardData.getData('text'));
    if (!pairs) return;
    event.preventDefault();
    setRows((current) => applyPaste(current, pairs));
  };

  /** One .env or .txt file: merged into the rows, new keys overriding. */
  const loadFiles = async (files: FileList | File[] | null) => {
    const list = files ? Array.from(files) : [];
    if (list.length !== 1) return;
    const [file] = list;
    if (!file || !isAcceptedEnvFile(file.name)) {
      await dialogs.alert('Please upload a .env or .txt file');
      return;
    }
    setUploading(true);
    try {
      const pairs = parseEnvText(await file.text());
      if (pairs.length === 0) {
        await dialogs.alert('No valid environment variables found in the file');
        return;
      }
      setRows((current) => mergeUploaded(current, pairs));
      await dialogs.alert(
        `Successfully loaded ${countOf(pairs.length, NOUNS.environmentVariable)} from the file`,
      );
    } finally {
      setUploading(false);
    }
  };

  const removeAll = async () => {
    const confirmed = await dialogs.confirm('Remove all environment variables from this list?', {
      title: 'Remove All',
      confirmLabel: 'Remove All',
      destructive: true,
    });
    if (confirmed) setRows([emptyRow()]);
  };

  return {
    rows,
    uploading,
    keyRef,
    variables: completeVariables(rows),
    anyFilled: rows.some((row) => !isEmpty(row)),
    change: (id: string, patch: Partial<EnvRow>) => update(id, patch),
    edit: (id: string) => update(id, { isReadOnly: false }),
    save,
    remove: (id: string) => setRows((current) => removeRow(current, id)),
    addRow,
    onValueKeyDown,
    onPaste,
    loadFiles,
    removeAll,
  };
}

export type EnvRowsController = ReturnType<typeof useEnvRows>;
