import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CollectedMail {
  from: string;
  to: string[];
  subject: string;
  /** The decoded text body (quoted-printable and base64 undone). */
  text: string;
  raw: string;
}

export interface LoopbackSmtp {
  /** `smtp://127.0.0.1:{port}`, for SMTP_URL. */
  url: string;
  messages: CollectedMail[];
  /** The first message matching `predicate`, waiting up to `timeoutMs` for it. */
  waitFor(predicate: (mail: CollectedMail) => boolean, timeoutMs?: number): Promise<CollectedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Headers and text of a single-part message as nodemailer writes it (text only, no attachments). */
function parseMessage(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split + 4) : '';
  const header = (name: string) =>
    new RegExp(`^${name}: (.*(?:\\r\\n[ \\t].*)*)`, 'mi').exec(head)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  const subject = header('Subject').replace(/=\?utf-8\?Q\?(.*?)\?=/gi, (_, encoded: string) =>
    decodeQuotedPrintable(encoded.replace(/_/g, ' ')),
  );
  return { subject, text: text.replace(/\r\n/g, '\n') };
}

/**
 * A real SMTP server on a loopback port that keeps every message it receives, for tests of anything that
 * sends mail through nodemailer. Plain SMTP without TLS or auth.
 */
export async function startLoopbackSmtp(): Promise<LoopbackSmtp> {
  const messages: CollectedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          ...parseMessage(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `no matching mail within ${timeoutMs} ms (got: ${messages.map((m) => m.subject).join(' | ')})`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
