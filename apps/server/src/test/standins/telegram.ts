import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TelegramSent {
  token: string;
  chat_id: string | number;
  text: string;
}

/**
 * A local Telegram Bot API for tests: `POST /bot{token}/sendMessage` with a JSON body answers as Telegram
 * documents it — `{ok: true, result: Message}` or `{ok: false, error_code, description}`.
 * Known tokens are accepted; chat ids listed in `unreachableChats` answer "chat not found".
 */
export async function startTelegramStandin(options: {
  tokens: string[];
  unreachableChats?: (string | number)[];
}) {
  const sent: TelegramSent[] = [];
  let nextId = 1;
  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const readJson = async (request: IncomingMessage): Promise<Record<string, unknown> | undefined> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };

  const server = createServer(async (request, response) => {
    const match = /^\/bot([^/]+)\/sendMessage$/.exec(request.url ?? '');
    if (!match || request.method !== 'POST') {
      return answer(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
    }
    const token = decodeURIComponent(match[1]!);
    if (!options.tokens.includes(token)) {
      return answer(response, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    }
    const body = await readJson(request);
    const chatId = body?.chat_id;
    const text = body?.text;
    if (
      (typeof chatId !== 'string' && typeof chatId !== 'number') ||
      typeof text !== 'string' ||
      text === ''
    ) {
      return answer(response, 400, {
        ok: false,
        error_code: 400,
        description: 'Bad Request: message text is empty',
      });
    }
    if (text.length > 4096) {
      return answer(response, 400, {
        ok: false,
        error_code: 400,
        description: 'Bad Request: message is too long',
      });
    }
    if (options.unreachableChats?.map(String).includes(String(chatId))) {
      return answer(response, 400, {
        ok: false,
        error_code: 400,
        description: 'Bad Request: chat not found',
      });
    }
    sent.push({ token, chat_id: chatId, text });
    return answer(response, 200, {
      ok: true,
      result: {
        message_id: nextId++,
        date: Math.floor(Date.now() / 1000),
        chat: { id: Number(chatId) || 0, type: 'private' },
        text,
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
