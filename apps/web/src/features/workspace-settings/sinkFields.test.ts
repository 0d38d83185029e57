import { describe, expect, it } from 'vitest';
import {
  canTestSink,
  fieldLabel,
  fieldNote,
  isHiddenField,
  isJsonValue,
  isMaskedField,
  parseJsonField,
  sinkProblem,
  visibleFields,
} from './sinkFields';

describe('field rules', () => {
  it('hides template, subject, body and bot_token fields', () => {
    for (const name of ['message_template', 'subject', 'email_body', 'bot_token', 'Subject_Line']) {
      expect(isHiddenField(name)).toBe(true);
    }
    expect(isHiddenField('to_email')).toBe(false);
    expect(isHiddenField('chat_id')).toBe(false);
  });

  it('masks password, token and secret fields', () => {
    for (const name of ['smtp_password', 'api_token', 'webhook_secret', 'TOKEN'])
      expect(isMaskedField(name)).toBe(true);
    expect(isMaskedField('to_email')).toBe(false);
  });

  it('edits objects and arrays as JSON', () => {
    expect(isJsonValue(['1', '2'])).toBe(true);
    expect(isJsonValue({ a: 1 })).toBe(true);
    expect(isJsonValue('x')).toBe(false);
    expect(isJsonValue(null)).toBe(false);
    expect(parseJsonField('["1"]')).toEqual({ value: ['1'] });
    expect(parseJsonField('[1,')).toBeUndefined();
  });

  it('lists the default fields first and drops hidden ones', () => {
    expect(visibleFields({ sink_type: 'email', enabled: true, config: {} })).toEqual(['to_email']);
    expect(
      visibleFields({
        sink_type: 'telegram',
        enabled: true,
        config: { chat_ids: ['1'], bot_token: 'x', parse_mode: 'HTML' },
      }),
    ).toEqual(['chat_id', 'chat_ids', 'parse_mode']);
  });

  it('labels fields readably', () => {
    expect(fieldLabel('chat_ids')).toBe('Chat IDs');
    expect(fieldLabel('to_email')).toBe('To email');
    expect(fieldLabel('api_token')).toBe('API token');
  });

  it('marks to_email', () => {
    expect(fieldNote('to_email')).toBe('(Test email sent automatically)');
    expect(fieldNote('chat_id')).toBeUndefined();
  });
});

describe('sink validation', () => {
  it('requires a valid email address', () => {
    expect(sinkProblem({ sink_type: 'email', enabled: true, config: {} })).toBe('Email address is required');
    expect(sinkProblem({ sink_type: 'email', enabled: true, config: { to_email: '  ' } })).toBe(
      'Email address is required',
    );
    expect(sinkProblem({ sink_type: 'email', enabled: true, config: { to_email: 'nope' } })).toBe(
      'Please enter a valid email address',
    );
    expect(
      sinkProblem({ sink_type: 'email', enabled: true, config: { to_email: 'a@b.co' } }),
    ).toBeUndefined();
  });

  it('requires a chat_id or a non-empty chat_ids array', () => {
    const message = 'At least one chat ID is required';
    expect(sinkProblem({ sink_type: 'telegram', enabled: true, config: {} })).toBe(message);
    expect(sinkProblem({ sink_type: 'telegram', enabled: true, config: { chat_id: '' } })).toBe(message);
    expect(sinkProblem({ sink_type: 'telegram', enabled: true, config: { chat_ids: [] } })).toBe(message);
    expect(sinkProblem({ sink_type: 'telegram', enabled: true, config: { chat_id: '123' } })).toBeUndefined();
    expect(
      sinkProblem({ sink_type: 'telegram', enabled: true, config: { chat_ids: ['1', '2'] } }),
    ).toBeUndefined();
  });

  it('allows Test only for an enabled valid sink with the master switch on', () => {
    const sink = { sink_type: 'email' as const, enabled: true, config: { to_email: 'a@b.co' } };
    expect(canTestSink(sink, true)).toBe(true);
    expect(canTestSink(sink, false)).toBe(false);
    expect(canTestSink({ ...sink, enabled: false }, true)).toBe(false);
    expect(canTestSink({ ...sink, config: {} }, true)).toBe(false);
  });
});
