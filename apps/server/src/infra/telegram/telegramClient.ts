/**
 * The Telegram Bot API, one call: sendMessage. The base URL is configurable (a local stand-in in tests).
 * The bot token is part of the URL path, so it is never put into error messages or logs.
 */
export interface TelegramSendResult {
  ok: boolean;
  messageId?: number;
  error?: string;
}

/** Bot tokens look like `123456:ABC-def_...`; anything else could reshape the request path. */
export const BOT_TOKEN_PATTERN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
/** Telegram's limit for one message's text. */
export const TELEGRAM_TEXT_LIMIT = 4096;

export function createTelegramClient(options: { apiUrl: string; timeoutMs?: number }) {
  const base = options.apiUrl.replace(/\/$/, '');
  return {
    async sendMessage(token: string, chatId: string | number, text: string): Promise<TelegramSendResult> {
      if (!BOT_TOKEN_PATTERN.test(token)) return { ok: false, error: 'The bot token is not valid' };
      let response: Response;
      try {
        response = await fetch(`${base}/bot${token}/sendMessage`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            chat_id: chatId,
            text: text.length > TELEGRAM_TEXT_LIMIT ? `${text.slice(0, TELEGRAM_TEXT_LIMIT - 1)}…` : text,
            disable_web_page_preview: true,
          }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        return { ok: false, error: `Telegram could not be reached (${(error as Error).name})` };
      }
      const body = (await response.json().catch(() => undefined)) as
        | { ok?: boolean; result?: { message_id?: number }; error_code?: number; description?: string }
        | undefined;
      if (body?.ok === true) {
        return {
          ok: true,
          ...(body.result?.message_id !== undefined ? { messageId: body.result.message_id } : {}),
        };
      }
      const description = typeof body?.description === 'string' ? body.description.slice(0, 300) : undefined;
      return { ok: false, error: description ?? `Telegram answered HTTP ${response.status}` };
    },
  };
}

export type TelegramClient = ReturnType<typeof createTelegramClient>;
