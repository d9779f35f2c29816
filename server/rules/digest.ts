// The e-mail digests of the rules (issue 40): one mail per rule and recipient an hour at most, naming the SIMs it
// fired for since the last one (the first 50, and how many in all), never one mail per SIM: a rule that fires for
// 100,000 SIMs at once sends one digest. Per rule in its own transaction, with the rule's watch row locked (SKIP
// LOCKED): two instances never send one rule's digest twice. The firings are marked as mailed after the mails are
// sent and in the same transaction: a crash between the two sends it again next time (at least once, never lost).
import { formatBytes } from '#domain/usage/format.ts';
import { tRuleMail } from '#domain/texts/rule-mail.ts';
import type { Em } from '#server/db/orm.ts';
import type { Mailer, MailMessage } from '#server/mail/mailer.ts';
import { escapeHtml } from '#server/mail/mailer.ts';

/** A digest goes out at most this often per rule. */
export const DIGEST_EVERY_MS = 60 * 60 * 1000;
/** SIMs a digest names; the rest are counted, and the rules' page lists them all. */
export const DIGEST_LINES = 50;

const stockholm = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Stockholm',
  dateStyle: 'short',
  timeStyle: 'short',
});

type Line = {
  iccid: string;
  mark: string;
  value: string | number;
  condition: string;
  fired_at: Date | string;
  paused: boolean;
};

function digestMail(
  to: { email: string; name: string },
  rule: string,
  count: number,
  lines: Line[],
  link: string,
): MailMessage {
  const m = tRuleMail;
  const text = lines.map((l) =>
    m.line(
      l.iccid,
      l.mark,
      l.condition === 'silent' ? m.silentValue(Math.floor(Number(l.value) / 60)) : formatBytes(Number(l.value)),
      stockholm.format(new Date(l.fired_at)),
      l.paused,
    ),
  );
  const head = [m.greeting(to.name), m.lead(rule, count), m.listed(lines.length, count)];
  const foot = [m.more, link, m.why];
  return {
    to: to.email,
    subject: m.subject(rule, count),
    text: `${[...head, text.map((t) => `- ${t}`).join('\n'), ...foot].join('\n\n')}\n`,
    html:
      head.map((p) => `<p>${escapeHtml(p)}</p>`).join('') +
      `<ul>${text.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>` +
      `<p>${escapeHtml(m.more)} <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(m.why)}</p>`,
  };
}

/**
 * Sends the digest of every rule with e-mail that has firings not yet mailed and whose last digest is an hour old
 * (or none), at `now`. Returns how many digests (rules) went out.
 */
export async function sendDigests(em: Em, mailer: Mailer, appUrl: string, now: Date): Promise<number> {
  // A probe of the unmailed firings' partial index per rule with e-mail.
  const due = await em.execute<Array<{ id: number; name: string }>>(
    `select r.id, r.name from rule r
     left join rule_watch w on w.rule_id = r.id
     where r.notify_email and (w.digest_sent_at is null or w.digest_sent_at <= ?::timestamptz)
       and exists (select 1 from rule_firing f where f.rule_id = r.id and f.emailed_at is null)
     order by r.id`,
    [new Date(now.getTime() - DIGEST_EVERY_MS).toISOString()],
  );
  let sent = 0;
  for (const rule of due) {
    const went = await em.transactional(async (tx) => {
      await tx.execute(`insert into rule_watch (rule_id) values (?) on conflict do nothing`, [rule.id]);
      const [watch] = await tx.execute<Array<{ at: Date | string | null }>>(
        `select digest_sent_at as at from rule_watch where rule_id = ? for update skip locked`,
        [rule.id],
      );
      // Another instance has it, or sent it since the list was read.
      if (!watch || (watch.at !== null && new Date(watch.at).getTime() > now.getTime() - DIGEST_EVERY_MS)) return false;
      const [last] = await tx.execute<Array<{ id: string | null; n: number | string }>>(
        `select max(id)::text as id, count(*) as n from rule_firing where rule_id = ? and emailed_at is null`,
        [rule.id],
      );
      const count = Number(last?.n ?? 0);
      if (!last?.id || count === 0) return false;
      const lines = await tx.execute<Line[]>(
        `select s.iccid, s.invoice_line_mark as mark, f.value, r.condition, f.fired_at, f.paused
         from rule_firing f join sim s on s.id = f.sim_id join rule r on r.id = f.rule_id
         where f.rule_id = ? and f.emailed_at is null and f.id <= ?::bigint order by f.fired_at, f.id limit ${DIGEST_LINES}`,
        [rule.id, last.id],
      );
      const to = await tx.execute<Array<{ email: string; name: string }>>(
        `select u.email, u.name from rule_recipient x join app_user u on u.id = x.user_id
         join rule r on r.id = x.rule_id and u.company_id = r.company_id
         where x.rule_id = ? and u.removed_at is null order by u.id`,
        [rule.id],
      );
      const link = `${appUrl}/company/rules`;
      for (const user of to) await mailer.send(digestMail(user, rule.name, count, lines, link));
      await tx.execute(
        `update rule_firing set emailed_at = ?::timestamptz where rule_id = ? and emailed_at is null and id <= ?::bigint`,
        [now.toISOString(), rule.id, last.id],
      );
      await tx.execute(`update rule_watch set digest_sent_at = ?::timestamptz where rule_id = ?`, [
        now.toISOString(),
        rule.id,
      ]);
      return true;
    });
    if (went) sent++;
  }
  return sent;
}
