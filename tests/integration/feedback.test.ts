// Feedback through the procedure (createContext + createCaller on the running portal): stored with the user
// and company, mailed to SUPPORT_EMAIL through a real SMTP server, blank text refused, mail failures harmless.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Company, Feedback, User } from '#server/db/entities.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { createContext } from '#server/trpc/context.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';
import { startSmtp } from '#tests/helpers/smtp.ts';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, SUPPORT_EMAIL: 'support@test.se', MAIL_FROM: 'SIM-portalen <no-reply@test.se>' },
  });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

async function as(email: string | null) {
  const headers = new Headers(email ? { cookie: await server.sessionCookie(email) } : {});
  return createCaller(await createContext({ services: server.services, headers, requestId: 'test', ip: '127.0.0.1' }));
}

/** The decoded text of a raw MIME message (quoted-printable undone), enough to read both parts. */
function decoded(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

const stored = () =>
  server.services.orm.em.fork().find(Feedback, {}, { orderBy: { id: 'asc' }, populate: ['user', 'company'] });

describe('feedback', () => {
  it('stores the message with user and company, and mails support with name, e-mail and company (HTML escaped)', async () => {
    const em = server.services.orm.em.fork();
    const company = await em.findOneOrFail(Company, { customerNumber: '100001' });
    em.create(User, { name: 'Otto <b>Fet</b>', email: 'otto@demo.test', company });
    await em.flush();
    const message = 'Skannern är snabb!\r\nMen <script>alert(1)</script> & "citat" syns.';
    const res = await (await as('otto@demo.test')).feedback.send({ message });
    expect(res).toEqual({ success: true, id: expect.any(Number) });
    const row = (await stored()).find((f) => f.id === res.id)!;
    expect(row.message).toBe('Skannern är snabb!\nMen <script>alert(1)</script> & "citat" syns.');
    expect(row.user!.email).toBe('otto@demo.test');
    expect(row.company!.name).toBe('Demo AB');

    await server.services.settled();
    const mails = smtp.to('support@test.se');
    expect(mails).toHaveLength(1);
    const mail = decoded(mails[0]!.raw);
    expect(mail).toContain('Från: Otto <b>Fet</b> <otto@demo.test>');
    expect(mail).toContain('Företag: Demo AB');
    expect(mail).toContain('Skannern är snabb!');
    // The HTML part carries the user's text escaped, never as markup.
    expect(mail).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;citat&quot;');
    expect(mail).toContain('Otto &lt;b&gt;Fet&lt;/b&gt;');
    expect(mail).not.toContain('<p style="white-space:pre-wrap">Skannern är snabb!\nMen <script>');
    expect(mail).toMatch(/^Reply-To: otto@demo\.test/m);
  });

  it('refuses blank or too long text with a clear message and stores nothing', async () => {
    const caller = await as('anna@demo.test');
    const before = (await stored()).length;
    for (const message of ['', '   ', '\r\n\t ']) {
      const err = await caller.feedback.send({ message }).catch((e) => e);
      expect(err.code).toBe('BAD_REQUEST');
      expect(err.cause.issues[0]).toMatchObject({
        path: ['message'],
        message: 'Skriv ett meddelande innan du skickar.',
      });
    }
    const long = await caller.feedback.send({ message: 'x'.repeat(5001) }).catch((e) => e);
    expect(long.cause.issues[0].message).toBe('Meddelandet får vara högst 5000 tecken.');
    expect((await stored()).length).toBe(before);
    // 5000 characters where each line break arrived as CRLF (as a browser sends a text area) is accepted.
    const lines = 'y'.repeat(99) + '\r\n';
    await expect(caller.feedback.send({ message: lines.repeat(50).trim() })).resolves.toMatchObject({ success: true });
  });

  it('refuses anonymous callers', async () => {
    await expect((await as(null)).feedback.send({ message: 'Hej' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('keeps the feedback when the mail server fails', async () => {
    const before = smtp.to('support@test.se').length;
    smtp.setFailing(true);
    try {
      const res = await (await as('anna@demo.test')).feedback.send({ message: 'Sparas även om posten krånglar' });
      expect(res.success).toBe(true);
      await server.services.settled();
    } finally {
      smtp.setFailing(false);
    }
    expect(smtp.to('support@test.se')).toHaveLength(before);
    const last = (await stored()).at(-1)!;
    expect(last.message).toBe('Sparas även om posten krånglar');
    expect(last.user!.email).toBe('anna@demo.test');
  });

  it('stores but mails nobody when SUPPORT_EMAIL is not set', async () => {
    const config = server.services.config;
    const saved = config.supportEmail;
    const count = smtp.mails.length;
    config.supportEmail = undefined;
    try {
      await (await as('anna@demo.test')).feedback.send({ message: 'Ingen supportadress' });
      await server.services.settled();
    } finally {
      config.supportEmail = saved;
    }
    expect(smtp.mails.length).toBe(count);
    expect((await stored()).at(-1)!.message).toBe('Ingen supportadress');
  });

  it('records the acting company for a super admin acting as another company', async () => {
    const em = server.services.orm.em.fork();
    const other = em.create(Company, {
      name: 'Agerat AB',
      customerNumber: 'F-900',
      invoiceNote: '',
      invoiceInterval: 'monthly',
    });
    await em.flush();
    const adminCtx = await createContext({
      services: server.services,
      headers: new Headers({ cookie: await server.sessionCookie('admin@demo.test') }),
      requestId: 't',
      ip: '',
    });
    await createCaller(adminCtx).admin.loginAsCompany({ companyId: other.id });
    const cookie = adminCtx.resHeaders.get('set-cookie')!.split(';')[0]!;
    const ctx = await createContext({
      services: server.services,
      headers: new Headers({ cookie }),
      requestId: 't',
      ip: '',
    });
    await createCaller(ctx).feedback.send({ message: 'Från admin som Agerat AB' });
    await server.services.settled();
    const last = (await stored()).at(-1)!;
    expect(last.company!.name).toBe('Agerat AB');
    expect(last.user!.email).toBe('admin@demo.test');
    expect(decoded(smtp.to('support@test.se').at(-1)!.raw)).toContain('Företag: Agerat AB');
  });
});
