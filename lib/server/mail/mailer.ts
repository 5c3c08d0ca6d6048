import 'server-only';
import { createTransport } from 'nodemailer';
import type { MailConfig } from './config';

/** One e-mail as the composer makes it: text and HTML, its headers, an optional CSV. */
export type Message = {
  kind: 'report' | 'test' | 'alert';
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post, X-Collections-Console-*). */
  headers: Record<string, string>;
  /** A stable Message-ID per subscription and due time, so a resend after a crash is one message to readers. */
  messageId: string;
  attachments: { filename: string; content: string; contentType: string }[];
};

/** A send the server refused or could not take: its SMTP code and answer, never the password. */
export class SendError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly response: string | null,
  ) {
    super(message);
  }
}

export type Mailer = {
  mode: MailConfig['mode'];
  from: string;
  send(message: Message): Promise<void>;
  close(): void;
};

/**
 * How mail leaves: nodemailer's SMTP transport (a pool of two connections, STARTTLS required off this machine,
 * timeouts short enough that a hung server is a retry, not a stuck scheduler), or the dashboard's own keeping
 * (`keep`, the sandbox without SMTP_URL) for `/mail`. With mode `off` every send is refused.
 */
export function createMailer(options: {
  config: MailConfig;
  keep: (message: Message, from: string) => Promise<void>;
  /** Tests' servers use a self-signed certificate. */
  tls?: { rejectUnauthorized: boolean };
  timeoutsMs?: { connection: number; greeting: number; socket: number };
}): Mailer {
  const { config } = options;
  const from = config.from;
  if (config.mode !== 'smtp' || !config.smtp) {
    return {
      mode: config.mode,
      from,
      async send(message) {
        if (config.mode === 'off') throw new SendError('Mail is off: set SMTP_URL', 'EOFF', null);
        await options.keep(message, from);
      },
      close() {},
    };
  }
  const smtp = config.smtp;
  const url = new URL(smtp.url);
  const timeouts = options.timeoutsMs ?? { connection: 10_000, greeting: 10_000, socket: 30_000 };
  const transport = createTransport({
    pool: true,
    maxConnections: 2,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (smtp.secure ? 465 : 587),
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
    tls: options.tls,
    connectionTimeout: timeouts.connection,
    greetingTimeout: timeouts.greeting,
    socketTimeout: timeouts.socket,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const hide = (text: string) => (smtp.password ? text.split(smtp.password).join('***') : text);
  return {
    mode: 'smtp',
    from,
    async send(message) {
      try {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: message.headers,
          messageId: message.messageId,
          attachments: message.attachments,
        });
      } catch (error) {
        const e = error as { message?: string; code?: string; response?: string };
        throw new SendError(hide(e.message ?? 'send failed'), e.code ?? 'ESEND', e.response ? hide(e.response) : null);
      }
    },
    close: () => transport.close(),
  };
}
