// Outgoing mail through nodemailer. With SMTP_URL: that server. Without (development): each message is
// written as an .eml file under DATA_DIR/outbox and announced on the console.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '#server/config.ts';
import type { Logger } from '#server/log.ts';

export type MailMessage = { to: string; subject: string; text: string; html: string; replyTo?: string };
export type Mailer = { send: (message: MailMessage) => Promise<void>; close: () => void };

export function createMailer(config: Config, log: Logger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail({ from: config.mailFrom, ...m });
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail({ from: config.mailFrom, ...m });
      mkdirSync(outbox, { recursive: true });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      log.info({ to: m.to, subject: m.subject, file }, 'mail written to the outbox (no SMTP_URL)');
    },
    close: () => transport.close(),
  };
}

const HTML_ESCAPES: Partial<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for the HTML part of a mail. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
