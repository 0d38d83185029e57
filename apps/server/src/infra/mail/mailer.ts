import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MailResult {
  sent: boolean;
  error?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'log';
  send(message: MailMessage): Promise<MailResult>;
  close(): void;
}

/** SMTP through nodemailer when SMTP_URL is set; otherwise each message is written to the server log. */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger }): Mailer {
  if (!options.smtpUrl) {
    return {
      kind: 'log',
      async send(message) {
        options.logger.info({ mail: message }, 'email (no SMTP configured, written to the log)');
        return { sent: true };
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      try {
        await transport.sendMail({ from: options.from, ...message });
        return { sent: true };
      } catch (error) {
        options.logger.warn({ err: error, to: message.to }, 'email failed');
        return { sent: false, error: (error as Error).message };
      }
    },
    close() {
      transport.close();
    },
  };
}
