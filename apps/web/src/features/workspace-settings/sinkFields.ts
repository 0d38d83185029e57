import { SECRET_MASK, type SinkType, sinkConfigProblem } from '@slipway/contract';
import type { EditableSink } from '../../api/alertConfig';

/** Fields the server fills in itself (message templates, the platform's bot token) stay out of the form. */
const HIDDEN_PARTS = ['template', 'subject', 'body', 'bot_token'];
/** Fields whose values are secrets are typed into password inputs. */
const MASKED_PARTS = ['password', 'token', 'secret'];

export function isHiddenField(name: string): boolean {
  const lower = name.toLowerCase();
  return HIDDEN_PARTS.some((part) => lower.includes(part));
}

export function isMaskedField(name: string): boolean {
  const lower = name.toLowerCase();
  return MASKED_PARTS.some((part) => lower.includes(part));
}

/** Objects and arrays are edited as JSON text. */
export function isJsonValue(value: unknown): boolean {
  return value !== null && typeof value === 'object';
}

const DEFAULT_FIELDS: Record<SinkType, string[]> = {
  email: ['to_email'],
  telegram: ['chat_id'],
};

/** The config fields a channel's form shows: its type's defaults first, then what the config holds. */
export function visibleFields(sink: EditableSink): string[] {
  const names = [...DEFAULT_FIELDS[sink.sink_type], ...Object.keys(sink.config)];
  return [...new Set(names)].filter((name) => !isHiddenField(name));
}

const ACRONYMS: Record<string, string> = { id: 'ID', ids: 'IDs', api: 'API', url: 'URL', smtp: 'SMTP' };

/** 'chat_ids' → 'Chat IDs', 'to_email' → 'To email'. */
export function fieldLabel(name: string): string {
  const words = name
    .split('_')
    .filter(Boolean)
    .map((word) => ACRONYMS[word.toLowerCase()] ?? word.toLowerCase());
  const label = words.join(' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** Spec: to_email is marked '(Test email sent automatically)'. */
export function fieldNote(name: string): string | undefined {
  return name === 'to_email' ? '(Test email sent automatically)' : undefined;
}

/** The spec's validation message for a channel, or undefined when it is complete. */
export function sinkProblem(sink: EditableSink): string | undefined {
  return sinkConfigProblem(sink.sink_type, sink.config);
}

/** Test needs an enabled, valid channel and the master switch on. */
export function canTestSink(sink: EditableSink, globalEnabled: boolean): boolean {
  return sink.enabled && globalEnabled && sinkProblem(sink) === undefined;
}

/** A masked secret is only a placeholder: the server keeps the stored value when it comes back unchanged. */
export function isMaskPlaceholder(value: unknown): boolean {
  return value === SECRET_MASK;
}

/** Parses a JSON field's text; undefined when it is not valid JSON. */
export function parseJsonField(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

export const SINK_TYPE_LABELS: Record<SinkType, string> = { email: 'Email', telegram: 'Telegram' };

export const SAVE_BLOCKED_MESSAGE = 'Please fix the validation errors before saving.';
