// Feedback from a signed-in user: stored first (with the user and company), then mailed to SUPPORT_EMAIL
// after the answer has gone out. A mail that fails is logged; the stored feedback stays.
import { Company, Feedback, User } from '#server/db/entities.ts';
import { escapeHtml } from '#server/mail/mailer.ts';
import type { Services } from '#server/services.ts';
import type { Em } from '#server/db/orm.ts';

export type Sender = { userId: number; name: string; email: string; companyId: number; companyName: string };

export function feedbackMail(sender: Sender, message: string, id: number) {
  const subject = `Feedback från ${sender.name} (${sender.companyName})`.replace(/[\r\n]+/g, ' ');
  const text = `Ny feedback i SIM-portalen (nr ${id}).\n\nFrån: ${sender.name} <${sender.email}>\nFöretag: ${sender.companyName}\n\n${message}\n`;
  const html =
    `<p>Ny feedback i SIM-portalen (nr ${id}).</p>` +
    `<p>Från: ${escapeHtml(sender.name)} &lt;${escapeHtml(sender.email)}&gt;<br>Företag: ${escapeHtml(sender.companyName)}</p>` +
    `<p style="white-space:pre-wrap">${escapeHtml(message)}</p>`;
  return { subject, text, html };
}

export async function submitFeedback(
  services: Services,
  em: Em,
  sender: Sender,
  message: string,
): Promise<{ id: number }> {
  const feedback = em.create(Feedback, {
    message,
    user: em.getReference(User, sender.userId),
    company: em.getReference(Company, sender.companyId),
  });
  await em.flush();
  const id = feedback.id;
  const to = services.config.supportEmail;
  if (to) {
    services.background(async () => {
      try {
        await services.mailer.send({ to, replyTo: sender.email, ...feedbackMail(sender, message, id) });
      } catch (err) {
        services.log.error({ err, feedbackId: id }, 'feedback mail failed; the feedback is stored');
      }
    });
  }
  return { id };
}
