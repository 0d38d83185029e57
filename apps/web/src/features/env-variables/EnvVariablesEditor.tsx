import { FileUp, Plus, Trash2, Upload } from 'lucide-react';
import { type DragEvent, useRef, useState } from 'react';
import { Badge, Button } from '../../components/ui';
import { countOf, NOUNS } from '../../lib/plural';
import { EnvVariableRow } from './EnvVariableRow';
import type { EnvRowsController } from './useEnvRows';

/**
 * The rows with their tools: upload, add, remove all, the 'N variable(s) added' badge and the
 * drop overlay. Multi-line KEY=VALUE text pasted anywhere in it fills rows.
 */
export function EnvVariablesEditor({
  controller,
  disabled = false,
}: {
  controller: EnvRowsController;
  disabled?: boolean;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);
  const busy = disabled || controller.uploading;
  const count = controller.variables.length;

  const onDragEnter = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    dragDepth.current += 1;
    setDragging(true);
  };
  const onDragLeave = () => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    if (!busy) void controller.loadFiles(event.dataTransfer.files);
  };

  return (
    <section
      aria-label="Environment variables"
      className="relative rounded-xl border border-zinc-200 bg-white p-5 shadow-sm"
      onPaste={controller.onPaste}
      onDragEnter={onDragEnter}
      onDragOver={(event) => event.preventDefault()}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      {dragging && (
        <div className="pointer-events-none absolute inset-0 z-10 flex flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-accent-400 bg-accent-50/90 text-accent-700">
          <FileUp className="h-8 w-8" aria-hidden="true" />
          <p className="font-medium">Drop .env file to auto-fill variables</p>
        </div>
      )}

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <h2 className="font-semibold text-zinc-900">Variables</h2>
          {count > 0 && <Badge tone="success">{`${countOf(count, NOUNS.variable)} added`}</Badge>}
        </div>
        <div className="flex flex-wrap gap-2">
          <input
            ref={fileInput}
            type="file"
            accept=".env,.txt"
            className="hidden"
            data-testid="env-file-input"
            onChange={(event) => {
              void controller.loadFiles(event.target.files);
              event.target.value = '';
            }}
          />
          <Button
            variant="secondary"
            size="sm"
            icon={Upload}
            disabled={busy}
            onClick={() => fileInput.current?.click()}
          >
            {controller.uploading ? 'Uploading...' : 'Upload .env File'}
          </Button>
          {controller.anyFilled && (
            <Button
              variant="ghost"
              size="sm"
              icon={Trash2}
              disabled={busy}
              onClick={() => void controller.removeAll()}
              className="text-red-600 hover:bg-red-50 hover:text-red-700"
            >
              Remove All
            </Button>
          )}
        </div>
      </div>

      <div className="mb-2 hidden gap-2 px-0.5 text-xs font-medium tracking-wide text-zinc-500 uppercase sm:flex">
        <span className="flex-[2]">Key</span>
        <span className="flex-[3]">Value</span>
        <span className="w-[4.5rem]" />
      </div>
      <div className="space-y-2">
        {controller.rows.map((row, index) => (
          <EnvVariableRow
            key={row.id}
            row={row}
            index={index}
            disabled={busy}
            keyRef={controller.keyRef(row.id)}
            onChange={(patch) => controller.change(row.id, patch)}
            onValueKeyDown={controller.onValueKeyDown(row)}
            onEdit={() => controller.edit(row.id)}
            onSave={() => controller.save(row)}
            onDelete={() => controller.remove(row.id)}
          />
        ))}
      </div>

      <Button
        variant="ghost"
        size="sm"
        className="mt-3"
        icon={Plus}
        disabled={busy}
        onClick={controller.addRow}
      >
        Add Variable
      </Button>
    </section>
  );
}
