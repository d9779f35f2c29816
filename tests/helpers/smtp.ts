// A real SMTP server (smtp-server) on a free port that keeps every message it receives.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string };

export async function startSmtp() {
  const mails: ReceivedMail[] = [];
  let failing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failing) return callback(new Error('mailbox unavailable'));
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    setFailing(v: boolean) {
      failing = v;
    },
    /** Mails to this address so far. */
    to: (address: string) => mails.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The login link in a mail's plain text part (quoted-printable soft breaks undone). */
export function linkIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = text.match(/https?:\/\/[^\s"<]+\/auth\/magic\?token=[^\s"<]+/);
  if (!m) throw new Error('no login link in the mail');
  return m[0];
}

/** The step-up link's token in a mail (a user without a passkey confirming by e-mail: /security/confirm/link). */
export function stepUpTokenIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = text.match(/https?:\/\/[^\s"<]+\/security\/confirm\/link\?token=([A-Za-z0-9_-]+)/);
  if (!m) throw new Error('no step-up link in the mail');
  return m[1]!;
}
