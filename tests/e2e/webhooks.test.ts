// /company/webhooks in a real Chromium, JS on and off, desktop and 390 px: an owner adds an endpoint
// (a receiver on 127.0.0.1), sees the secret once, sends a test event that arrives and is shown, rotates the
// secret, turns it off, and deletes it on a confirm page; bad input is refused next to the field, values kept.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User, WebhookEndpoint } from '#server/db/entities.ts';
import { axeViolations } from '#tests/helpers/browser.ts';
import { companyWithOwner, ready, screenVariants as variants } from '#tests/helpers/company.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({
  env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_MS: '100', WEBHOOK_BACKOFF_MS: '100' },
});
const em = () => portal.server.services.orm.em.fork();

const got: Array<{ type: string; signature: string }> = [];
let rx: http.Server;
let rxUrl: string;
beforeAll(async () => {
  rx = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({
        type: JSON.parse(Buffer.concat(chunks).toString('utf8')).type,
        signature: String(req.headers['x-sim-portal-signature']),
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  rxUrl = `http://127.0.0.1:${(rx.address() as { port: number }).port}/hook`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      rx?.closeAllConnections();
      rx?.close(() => r());
    }),
);

const owner = async (tag: string) => (await companyWithOwner(portal.server, 'Krok', tag)).ownerEmail;

describe.each(variants)('/company/webhooks ($tag)', ({ js, width, tag }) => {
  it('adds an endpoint, shows the secret once, delivers a test event, rotates, turns off and deletes', async () => {
    const ownerEmail = await owner(tag);
    const page = await portal.loggedInPage(ownerEmail, { js, width });
    const shot = (name: string) =>
      page.screenshot({
        path: `test-results/webhooks-${name}-${width === 390 ? '390' : 'desktop'}.png`,
        fullPage: true,
      });
    await page.goto('/company');
    await ready(page, js);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/company/webhooks');
    await ready(page, js);
    await expect.poll(() => page.getByText('Företaget har inga webhooks ännu.').isVisible()).toBe(true);

    // Bad input: refused next to the field, the values kept (no event first, then an inside address).
    await page.fill('#webhooks-url', 'https://10.0.0.9/hook');
    for (const box of await page.locator('.webhooks-events input[type=checkbox]').all()) await box.uncheck();
    await page.getByRole('button', { name: 'Lägg till webhook' }).click();
    await expect.poll(() => page.locator('#webhooks-events-error').textContent()).toBe('Välj minst en händelse.');
    expect(await page.locator('#webhooks-url').inputValue()).toBe('https://10.0.0.9/hook');
    expect(await page.locator('#webhooks-event-sim\\.activated').isChecked()).toBe(false);
    await page.check('#webhooks-event-sim\\.updated');
    await page.getByRole('button', { name: 'Lägg till webhook' }).click();
    await expect.poll(() => page.locator('#webhooks-url-error').textContent()).toMatch(/internt eller privat nät/);
    expect(await page.locator('#webhooks-url').inputValue()).toBe('https://10.0.0.9/hook');
    expect(await page.locator('#webhooks-url').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#webhooks-event-sim\\.updated').isChecked()).toBe(true);
    await shot('refused');
    // An address without https://: the rule stands once (the hint); the message says what is wrong with this one.
    await page.fill('#webhooks-url', 'http://example.com/hook');
    await page.getByRole('button', { name: 'Lägg till webhook' }).click();
    await expect
      .poll(() => page.locator('#webhooks-url-error').textContent())
      .toBe('Webhooks skickas bara krypterat, och den här adressen börjar inte med https://.');
    const main = await page.locator('main').innerText();
    expect(main.match(/Måste börja med https:\/\//g)).toHaveLength(1);

    // Created: the secret once.
    await page.fill('#webhooks-url', rxUrl);
    await page.check('#webhooks-event-sim\\.activated');
    await page.getByRole('button', { name: 'Lägg till webhook' }).click();
    const secretBox = page.locator('#webhooks-secret-value');
    await expect.poll(() => secretBox.isVisible()).toBe(true);
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await page.getByText('visas bara den här gången').isVisible()).toBe(true);
    await shot('created');
    if (js) expect(await axeViolations(page)).toEqual([]);
    // Never again: a fresh load of the page shows no secret.
    await page.goto('/company/webhooks');
    await ready(page, js);
    expect(await page.content()).not.toContain(secret);
    const card = page.locator('.webhooks-endpoint', { hasText: rxUrl });
    expect(await card.textContent()).toContain('SIM-kort aktiverat');

    // A test event arrives at the receiver and is shown with its status code.
    const before = got.length;
    await card.getByRole('button', { name: 'Skicka testhändelse' }).click();
    await expect.poll(() => page.getByText('Testhändelsen är på väg').isVisible()).toBe(true);
    await expect.poll(() => got.length, { timeout: 20_000 }).toBe(before + 1);
    expect(got.at(-1)!.type).toBe('webhook.test');
    await expect
      .poll(
        async () => {
          await page.goto('/company/webhooks');
          await ready(page, js);
          return page.locator('.webhooks-delivery').first().textContent();
        },
        { timeout: 20_000 },
      )
      .toMatch(/Testhändelse.*Levererad \(Svar 200\)/);
    await shot('delivered');
    if (js) expect(await axeViolations(page)).toEqual([]);

    // Failing for more than a day: the owner sees it on the page.
    const me = await em().findOneOrFail(User, { email: ownerEmail });
    await em().nativeUpdate(
      WebhookEndpoint,
      { url: rxUrl, company: me.company },
      { failingSince: new Date(Date.now() - 25 * 3600_000) },
    );
    await page.goto('/company/webhooks');
    await ready(page, js);
    expect(await page.locator('.webhooks-endpoint', { hasText: rxUrl }).getByRole('alert').textContent()).toMatch(
      /misslyckats i över ett dygn/,
    );
    await shot('failing');

    // Rotate: a new secret, once.
    await page.locator('.webhooks-endpoint', { hasText: rxUrl }).getByRole('button', { name: 'Byt hemlighet' }).click();
    await expect.poll(() => page.locator('#webhooks-secret-value').isVisible()).toBe(true);
    expect(await page.locator('#webhooks-secret-value').inputValue()).not.toBe(secret);

    // Off: shown as off, the test button disabled.
    await page.locator('.webhooks-endpoint', { hasText: rxUrl }).getByRole('button', { name: 'Stäng av' }).click();
    await expect
      .poll(() => page.locator('.webhooks-endpoint', { hasText: rxUrl }).locator('.webhooks-off').textContent())
      .toBe('Avstängd');
    // A state is a badge here as everywhere (its icon and word).
    expect(
      await page.locator('.webhooks-endpoint', { hasText: rxUrl }).locator('.webhooks-off').getAttribute('class'),
    ).toBe('badge tone-neutral webhooks-off');
    expect(
      await page
        .locator('.webhooks-endpoint', { hasText: rxUrl })
        .getByRole('button', { name: 'Skicka testhändelse' })
        .isDisabled(),
    ).toBe(true);
    // No sideways scroll at 390 px.
    if (width === 390)
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Delete, on a confirm page.
    await page.locator('.webhooks-endpoint', { hasText: rxUrl }).getByRole('link', { name: 'Ta bort' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Ta bort webhook' }).isVisible()).toBe(true);
    await ready(page, js);
    await shot('delete');
    await page.getByRole('button', { name: 'Ta bort' }).click();
    await expect.poll(() => page.getByText('Webhooken är borttagen').isVisible()).toBe(true);
    expect(await page.getByText('Företaget har inga webhooks ännu.').isVisible()).toBe(true);
    await page.context().close();
  });
});

describe('/company/webhooks for others', () => {
  it('answers 403 to a member', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    const res = await page.goto('/company/webhooks');
    expect(res?.status()).toBe(403);
    await page.context().close();
  });
});
