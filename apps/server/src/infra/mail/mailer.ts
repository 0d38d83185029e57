import type { Transporter } from 'nodemailer';
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
  const { smtpUrl } = options;
  // nodemailer is imported on the first message, so a server that sends none never loads it.
  let transport: Promise<Transporter> | undefined;
  const connect = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
    return transport;
  };
  return {
    kind: 'smtp',
    async send(message) {
      try {
        await (await connect()).sendMail({ from: options.from, ...message });
        return { sent: true };
      } catch (error) {
        options.logger.warn({ err: error, to: message.to }, 'email failed');
        return { sent: false, error: (error as Error).message };
      }
    },
    close() {
      void transport?.then(
        (loaded) => loaded.close(),
        (error: unknown) => options.logger.warn({ err: error }, 'closing the SMTP transport failed'),
      );
    },
  };
}
