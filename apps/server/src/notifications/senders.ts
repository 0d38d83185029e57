import type { SinkType } from '@slipway/contract';
import type { Mailer } from '../infra/mail/mailer.js';
import type { TelegramClient } from '../infra/telegram/telegramClient.js';
import type { AlertMessage } from './alertMessage.js';
import type { StoredConfig } from './sinkSecrets.js';

export interface SendOutcome {
  ok: boolean;
  /** Where it went, or why it did not, in words for the user (never a secret). */
  detail: string;
}

export interface Senders {
  send(sinkType: SinkType, config: StoredConfig, message: AlertMessage): Promise<SendOutcome>;
}

const chatIdsOf = (config: StoredConfig): (string | number)[] => {
  const ids: (string | number)[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) {
      const id = typeof value === 'string' ? value.trim() : value;
      if (!ids.includes(id)) ids.push(id);
    }
  };
  add(config.chat_id);
  if (Array.isArray(config.chat_ids)) for (const id of config.chat_ids) add(id);
  return ids;
};

/** Email through the platform mailer (SMTP); Telegram through the Bot API with the sink's or the platform's bot. */
export function createSenders(deps: {
  mailer: Mailer;
  telegram: TelegramClient;
  defaultBotToken: string | undefined;
}): Senders {
  return {
    async send(sinkType, config, message) {
      if (sinkType === 'email') {
        const to = String(config.to_email ?? '').trim();
        const result = await deps.mailer.send({ to, subject: message.subject, text: message.text });
        return result.sent
          ? { ok: true, detail: `email sent to ${to}` }
          : { ok: false, detail: result.error ?? 'email failed' };
      }
      const token =
        typeof config.bot_token === 'string' && config.bot_token ? config.bot_token : deps.defaultBotToken;
      if (!token) return { ok: false, detail: 'No Telegram bot token is configured' };
      const ids = chatIdsOf(config);
      const failures: string[] = [];
      for (const id of ids) {
        const result = await deps.telegram.sendMessage(token, id, message.text);
        if (!result.ok) failures.push(`${id}: ${result.error ?? 'failed'}`);
      }
      return failures.length === 0
        ? { ok: true, detail: `Telegram message sent to ${ids.length} chat${ids.length === 1 ? '' : 's'}` }
        : { ok: false, detail: `Telegram: ${failures.join('; ')}` };
    },
  };
}
