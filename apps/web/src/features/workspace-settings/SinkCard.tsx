import { Mail, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { EditableSink } from '../../api/alertConfig';
import { Button, Card, cn } from '../../components/ui';
import { fieldClasses } from '../../components/ui/Input';
import {
  canTestSink,
  fieldLabel,
  fieldNote,
  isJsonValue,
  isMaskedField,
  parseJsonField,
  SINK_TYPE_LABELS,
  sinkProblem,
  visibleFields,
} from './sinkFields';

/** One notification channel: Test, enabled toggle, delete and its config fields. */
export function SinkCard({
  sink,
  globalEnabled,
  showErrors,
  testing,
  onChange,
  onDelete,
  onTest,
}: {
  sink: EditableSink;
  globalEnabled: boolean;
  showErrors: boolean;
  testing: boolean;
  onChange: (sink: EditableSink) => void;
  onDelete: () => void;
  onTest: () => void;
}) {
  const problem = sinkProblem(sink);
  const setField = (name: string, value: unknown) =>
    onChange({ ...sink, config: { ...sink.config, [name]: value } });
  const Icon = sink.sink_type === 'email' ? Mail : Send;

  return (
    <Card className={cn('p-5', problem && 'border-amber-300')} data-testid={`sink-${sink.sink_type}`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Icon className="h-5 w-5 text-accent-600" aria-hidden="true" />
          <h3 className="font-semibold text-zinc-900">{SINK_TYPE_LABELS[sink.sink_type]}</h3>
          {problem && (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">
              Configuration incomplete
            </span>
          )}
        </div>
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-1.5 text-sm text-zinc-700">
            <input
              type="checkbox"
              checked={sink.enabled}
              onChange={(event) => onChange({ ...sink, enabled: event.target.checked })}
            />
            Enabled
          </label>
          <Button
            size="sm"
            variant="secondary"
            disabled={!canTestSink(sink, globalEnabled)}
            loading={testing}
            onClick={onTest}
          >
            Test
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={onDelete}
            aria-label={`Delete ${SINK_TYPE_LABELS[sink.sink_type]} channel`}
          >
            <Trash2 className="h-4 w-4 text-red-600" aria-hidden="true" />
          </Button>
        </div>
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {visibleFields(sink).map((name) => (
          <ConfigField
            key={name}
            name={name}
            value={sink.config[name]}
            onChange={(value) => setField(name, value)}
          />
        ))}
      </div>
      {problem && showErrors && (
        <p className="mt-3 text-sm font-medium text-red-600" role="alert">
          {problem}
        </p>
      )}
    </Card>
  );
}

function ConfigField({
  name,
  value,
  onChange,
}: {
  name: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const note = fieldNote(name);
  const id = `sink-field-${name}`;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {fieldLabel(name)} {note && <span className="font-normal text-zinc-500">{note}</span>}
      </label>
      {isJsonValue(value) ? (
        <JsonField id={id} value={value} onChange={onChange} />
      ) : (
        <input
          id={id}
          name={name}
          type={isMaskedField(name) ? 'password' : name.includes('email') ? 'email' : 'text'}
          autoComplete={isMaskedField(name) ? 'new-password' : 'off'}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(event) => onChange(event.target.value)}
          className={fieldClasses(false)}
        />
      )}
    </div>
  );
}

/** Objects and arrays as JSON; the text is kept while it does not parse. */
function JsonField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const [text, setText] = useState(() => JSON.stringify(value, null, 2));
  const [invalid, setInvalid] = useState(false);
  return (
    <>
      <textarea
        id={id}
        value={text}
        rows={3}
        onChange={(event) => {
          setText(event.target.value);
          const parsed = parseJsonField(event.target.value);
          setInvalid(!parsed);
          if (parsed) onChange(parsed.value);
        }}
        className={cn(fieldClasses(invalid), 'font-mono text-xs')}
      />
      {invalid && <p className="text-xs text-red-600">Not valid JSON yet.</p>}
    </>
  );
}
