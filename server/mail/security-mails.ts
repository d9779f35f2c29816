// The security mails to a user: the step-up link (a user without a passkey proves it is them by their mailbox)
// and the notice of every passkey added to or removed from their account, so that a passkey added by someone
// else (a stolen session) does not go unseen. Sent after the change is committed, in the background: a mail
// server that is down never undoes or fails the change (the audit trail has it either way).
import { tSecurity } from '#domain/texts/security.ts';
import type { Services } from '#server/services.ts';
import { escapeHtml, type MailMessage } from './mailer.ts';

const m = tSecurity.mail;
const stockholm = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Stockholm',
  dateStyle: 'short',
  timeStyle: 'short',
});

export type Recipient = { email: string; name: string };
export type PasskeyChange =
  { kind: 'added'; name: string } | { kind: 'removed'; name: string } | { kind: 'reset'; count: number };

const paragraphs = (lines: string[]) => lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('');

export function stepUpLinkMail(to: Recipient, link: string, minutes: number): MailMessage {
  return {
    to: to.email,
    subject: m.linkSubject,
    text: m.link(to.name, link, minutes),
    html:
      paragraphs([m.linkHtmlLead(to.name), m.linkHtmlBody]) +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(m.linkHtmlButton)}</a></p>` +
      paragraphs([m.linkHtmlFoot(minutes)]),
  };
}

export function passkeyChangeMail(to: Recipient, change: PasskeyChange, at: Date): MailMessage {
  const subject =
    change.kind === 'added' ? m.addedSubject : change.kind === 'removed' ? m.removedSubject : m.resetSubject;
  const what =
    change.kind === 'added'
      ? m.added(change.name)
      : change.kind === 'removed'
        ? m.removed(change.name)
        : m.reset(change.count);
  const lines = [m.greeting(to.name), what, m.when(stockholm.format(at)), m.notYou];
  return { to: to.email, subject, text: `${lines.join('\n\n')}\n`, html: paragraphs(lines) };
}

/** Sends a mail after the answer (services.settled() waits for it); a failure is logged, never thrown. */
export function sendSecurityMail(services: Services, message: MailMessage, what: string): void {
  services.background(async () => {
    if (!services.config.smtpUrl)
      services.log.info({ to: message.to, what }, 'security mail (development: no SMTP_URL)');
    try {
      await services.mailer.send(message);
    } catch (err) {
      services.log.error({ err, to: message.to, what }, 'security mail could not be sent');
    }
  });
}

/** Tells the user that a passkey of theirs was added or removed (or all reset by support). */
export function tellPasskeyChange(services: Services, to: Recipient, change: PasskeyChange, at = new Date()): void {
  sendSecurityMail(services, passkeyChangeMail(to, change, at), `passkey ${change.kind}`);
}
