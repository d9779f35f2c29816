// The feedback screen in a real Chromium with JavaScript on and off: the button waits for text (JS), the
// server refuses blank text (no JS), thanks on success (once: not again on reload), the message stored and received by a real SMTP
// server, and the text kept with "Något gick fel, försök igen senare" when saving fails.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Feedback } from '#server/db/entities.ts';
import { MOBILE } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ smtp: true, env: { SUPPORT_EMAIL: 'support@test.se' } });

async function feedbackPage(js: boolean, viewport?: { width: number; height: number }) {
  const page = await portal.loggedInPage('anna@demo.test', { js, width: viewport?.width });
  const ctx = page.context();
  await page.goto('/feedback');
  if (js) await page.waitForFunction(() => '__remixRouter' in window);
  return { ctx, page };
}

const send = (page: Page) => page.getByRole('button', { name: 'Skicka' });
const box = (page: Page) => page.getByLabel('Ditt meddelande');
const storedMessages = async () =>
  (await portal.server.services.orm.em.fork().find(Feedback, {}, { orderBy: { id: 'asc' } })).map((f) => f.message);
/** Mail text with quoted-printable soft breaks and UTF-8 escapes undone. */
const mailText = (raw: string) =>
  Buffer.from(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

describe('feedback', () => {
  it('with JS: "Skicka" is disabled while the text is blank, the counter follows, and sending thanks the user', async () => {
    const { ctx, page } = await feedbackPage(true);
    await page.waitForFunction(
      () => document.querySelector<HTMLButtonElement>('form.card button[type=submit]')!.disabled,
    );
    expect(await page.locator('#feedback-counter').textContent()).toBe('0 / 5000 tecken');
    expect(await box(page).getAttribute('maxlength')).toBe('5000');
    await box(page).fill('  \n  ');
    expect(await send(page).isDisabled()).toBe(true);
    await box(page).fill('Exporten till Excel är toppen (JS)');
    expect(await send(page).isEnabled()).toBe(true);
    expect(await page.locator('#feedback-counter').textContent()).toBe('34 / 5000 tecken');
    await send(page).click();
    await page.getByRole('status').filter({ hasText: 'Tack för din feedback!' }).waitFor();
    // The toast may come over the event stream before the page after the redirect.
    await expect.poll(() => box(page).inputValue()).toBe('');
    expect(await send(page).isDisabled()).toBe(true);
    expect(await storedMessages()).toContain('Exporten till Excel är toppen (JS)');
    // The thanks is a one-time flash: a reload does not bring it back.
    expect(new URL(page.url()).search).toBe('');
    await page.reload();
    await page.waitForFunction(() => '__remixRouter' in window);
    expect(await page.getByText('Tack för din feedback!').count()).toBe(0);
    await portal.server.services.settled();
    const mail = portal.smtp.to('support@test.se').at(-1)!;
    const text = mailText(mail.raw);
    expect(text).toContain('Exporten till Excel är toppen (JS)');
    expect(text).toContain('Från: Anna Andersson <anna@demo.test>');
    expect(text).toContain('Företag: Demo AB');
    await ctx.close();
  });

  it('without JS: blank text is refused by the server next to the field, then sending works', async () => {
    const { ctx, page } = await feedbackPage(false);
    expect(await send(page).isEnabled()).toBe(true);
    const before = await storedMessages();
    await box(page).fill('   ');
    await send(page).click();
    await page.locator('#feedback-error').waitFor();
    expect(await page.locator('#feedback-error').textContent()).toBe('Skriv ett meddelande innan du skickar.');
    expect(await box(page).getAttribute('aria-invalid')).toBe('true');
    expect(await box(page).getAttribute('aria-describedby')).toContain('feedback-error');
    expect(await storedMessages()).toEqual(before);

    const message = 'Skannern hittar inte kameran (utan JS).\nRad två med åäö.';
    await box(page).fill(message);
    await send(page).click();
    await page.getByRole('status').filter({ hasText: 'Tack för din feedback!' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(await storedMessages()).toContain(message);
    await page.reload();
    await box(page).waitFor();
    expect(await page.getByText('Tack för din feedback!').count()).toBe(0);
    expect(await storedMessages()).toContain(message);
    await portal.server.services.settled();
    const text = mailText(portal.smtp.to('support@test.se').at(-1)!.raw);
    expect(text).toContain('Skannern hittar inte kameran (utan JS).');
    expect(text).toContain('Rad två med åäö.');
    await ctx.close();
  });

  for (const js of [true, false]) {
    it(`keeps the text and says "Något gick fel, försök igen senare" when saving fails (JS ${js ? 'on' : 'off'})`, async () => {
      const { ctx, page } = await feedbackPage(js);
      const conn = portal.server.services.orm.em.getConnection();
      const message = `Det här får inte försvinna (${js ? 'JS' : 'utan JS'})`;
      await box(page).fill(message);
      await conn.execute('alter table "feedback" rename to "feedback_away"');
      try {
        await send(page).click();
        await page.getByRole('alert').filter({ hasText: 'Något gick fel, försök igen senare' }).waitFor();
        expect(await box(page).inputValue()).toBe(message);
        expect(await page.getByRole('status').count()).toBe(0);
      } finally {
        await conn.execute('alter table "feedback_away" rename to "feedback"');
      }
      // Once the database is back, the same text goes through.
      await send(page).click();
      await page.getByRole('status').filter({ hasText: 'Tack för din feedback!' }).waitFor();
      expect(await storedMessages()).toContain(message);
      await ctx.close();
    });
  }

  it('with JS: a send that fails on the way (network down, a proxy error page) keeps the text and says so next to the form', async () => {
    const { ctx, page } = await feedbackPage(true);
    const message = 'Skickat över ett nät som går ner';
    await box(page).fill(message);
    const before = await storedMessages();
    const failures: Array<(r: import('playwright-core').Route) => Promise<void>> = [
      (route) => route.abort('internetdisconnected'),
      (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' }),
    ];
    for (const fail of failures) {
      // Every request of the page's data fails, the post and any reload of the page's data after it.
      await page.route('**/feedback.data*', fail);
      await send(page).click();
      await page.getByRole('alert').filter({ hasText: 'Något gick fel, försök igen senare' }).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Lämna feedback');
      expect(await box(page).inputValue()).toBe(message);
      // The button comes back once the router is idle again, which may be a moment after the alert shows.
      await expect.poll(() => send(page).isEnabled(), { timeout: 10_000 }).toBe(true);
      await page.unroute('**/feedback.data*');
    }
    expect(await storedMessages()).toEqual(before);
    await send(page).click();
    await page.getByRole('status').filter({ hasText: 'Tack för din feedback!' }).waitFor();
    expect(await storedMessages()).toContain(message);
    await ctx.close();
  });

  it('POST /api/feedback: 401 anonymous, 400 with the message for blank text, 200 stores and mails', async () => {
    const post = (body: unknown, cookie?: string) =>
      fetch(portal.server.url + '/api/feedback', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
    expect((await post({ message: 'Hej' })).status).toBe(401);
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const blank = await post({ message: ' \n ' }, cookie);
    expect(blank.status).toBe(400);
    expect(await blank.json()).toEqual({
      error: 'Skriv ett meddelande innan du skickar.',
      issues: [{ path: ['message'], message: 'Skriv ett meddelande innan du skickar.' }],
    });
    const ok = await post({ message: 'Via REST' }, cookie);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, id: expect.any(Number) });
    expect(await storedMessages()).toContain('Via REST');
    await portal.server.services.settled();
    expect(mailText(portal.smtp.to('support@test.se').at(-1)!.raw)).toContain('Via REST');
  });

  it('fits a 390 px wide phone', async () => {
    const { ctx, page } = await feedbackPage(true, MOBILE);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await ctx.close();
  });
});
