// Issue 37's dead end, in Chromium with JavaScript on and off: an owner without a passkey who wants an API key,
// a webhook or a user change is told up front what is needed (no passkey button that fails, no recovery-code
// page she cannot use), fills in the form, is refused with the values kept, asks for a step-up link by e-mail
// (the real SMTP peer), opens it in the same browser, adds a passkey (JS: Chromium's virtual authenticator) or
// goes on without (no JS: the link's 10 minutes), and is back at the form with what she typed, which then
// goes through. Also the revoke and remove confirm pages with a stale step-up, the mails and the audit rows,
// axe, and screenshots at 1280 and 390 px into STEP_UP_SHOTS when it names a directory (looked at while writing).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiKey, AuditEvent, Company, Passkey, User } from '#server/db/entities.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { needs } from '#tests/helpers/needs.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { stepUpTokenIn } from '#tests/helpers/smtp.ts';

const portal = useScreens({ smtp: true });
const em = () => portal.server.services.orm.em.fork();
// Pictures to look at, only when asked for (STEP_UP_SHOTS=dir): a run leaves nothing behind in its temporary dir.
const SHOTS = process.env.STEP_UP_SHOTS;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

let n = 0;
/** An owner without a passkey, in a company of her own, signed in by the e-mail link 30 minutes ago. */
async function ownerWithoutPasskey() {
  n++;
  const e = em();
  const company = e.create(Company, {
    name: `Flöde ${n} AB`,
    customerNumber: `FLODE-${n}-${Date.now()}`,
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  const owner = e.create(User, { name: `Olga ${n}`, email: `olga${n}@flode${n}.test`, company, role: 'owner' });
  const member = e.create(User, { name: `Mats ${n}`, email: `mats${n}@flode${n}.test`, company, role: 'member' });
  await e.flush();
  const cookie = await portal.server.sessionCookie(owner.email, {
    method: 'link',
    steppedUp: false,
    now: new Date(Date.now() - 30 * 60_000),
  });
  return { owner, member, cookie };
}

async function pageFor(cookie: string, opts: { js: boolean; width?: number }) {
  const context = await newContext(portal.browser, {
    baseURL: portal.server.url,
    js: opts.js,
    cookie,
    viewport: opts.width === MOBILE.width ? MOBILE : DESKTOP,
  });
  const page = await context.newPage();
  if (opts.js) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  }
  return { context, page };
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The step-up link from the newest mail to the address (the mail sent after the answer: wait for it). */
async function stepUpLink(email: string): Promise<string> {
  await portal.server.services.settled();
  const token = stepUpTokenIn(portal.smtp.to(email).at(-1)!.raw);
  return `/security/confirm/link?token=${token}`;
}

/** The way from a refused form to the step-up and back, as the owner goes it. */
async function confirmByMail(page: Page, email: string, opts: { js: boolean; tag: string }) {
  await page.getByRole('link', { name: 'Lägg till inloggningsnyckel' }).click();
  await page.getByRole('heading', { name: 'Bekräfta att det är du' }).waitFor();
  // No recovery code she cannot have, no passkey button that fails.
  expect(await page.getByLabel('Återställningskod').count()).toBe(0);
  expect(await page.getByRole('button', { name: /Bekräfta med/ }).count()).toBe(0);
  await shot(page, `${opts.tag}-confirm`);
  await page.getByRole('button', { name: 'Skicka länk till min e-post' }).click();
  await page.getByText(`Vi har skickat en länk till ${email}.`).waitFor();
  await shot(page, `${opts.tag}-sent`);
  await page.goto(await stepUpLink(email));
  await page.getByRole('heading', { name: 'Bekräfta med e-postlänken' }).waitFor();
  await shot(page, `${opts.tag}-link`);
  await page.getByRole('button', { name: 'Bekräfta', exact: true }).click();
  await page.getByRole('heading', { name: 'Lägg till en inloggningsnyckel' }).waitFor();
  if (opts.js) {
    await page.getByRole('button', { name: 'Lägg till inloggningsnyckel och fortsätt' }).waitFor();
    await shot(page, `${opts.tag}-add`);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Namn på inloggningsnyckeln').fill('Jobbdator');
    await page.getByRole('button', { name: 'Lägg till inloggningsnyckel och fortsätt' }).click();
  } else {
    await page.getByText('kräver att JavaScript är påslaget').waitFor();
    await shot(page, `${opts.tag}-add`);
    await page.getByRole('link', { name: 'Fortsätt utan inloggningsnyckel' }).click();
  }
}

async function mailSubjects(email: string): Promise<string[]> {
  await portal.server.services.settled();
  return portal.smtp.to(email).map((m) => {
    const line = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(m.raw)?.[1] ?? '';
    // Encoded words (=?UTF-8?Q?...?=) back to text.
    return line.replace(/\r?\n[ \t]/g, '').replace(/=\?UTF-8\?Q\?(.*?)\?=\s*/gi, (_, q: string) =>
      Buffer.from(
        q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8'),
    );
  });
}

const close = (context: BrowserContext) => context.close();

needs(describe, 'chromium')('an owner without a passkey: from the form to the step-up and back', () => {
  for (const js of [true, false]) {
    it(`an API key, JS ${js ? 'on' : 'off'}: told up front, values kept, link by mail, then created`, async () => {
      const { owner, cookie } = await ownerWithoutPasskey();
      const { context, page } = await pageFor(cookie, { js });
      const tag = `apikey-js-${js ? 'on' : 'off'}`;
      await page.goto('/company/api-keys');
      // Up front: what is needed, and the way that exists for her.
      const prompt = page.locator('.step-up');
      await prompt.getByText('du har ingen ännu').waitFor();
      expect(await prompt.getByRole('button').count()).toBe(0);
      expect(await page.getByText('Nyckeln finns inte').count()).toBe(0);
      await shot(page, `${tag}-page`);
      await page.getByLabel('Namn', { exact: true }).fill('Lagersystem');
      await page.getByLabel('Behörighet').selectOption('write');
      await page.getByLabel('Går ut').fill('2031-01-31');
      await page.getByRole('button', { name: 'Skapa nyckel' }).click();
      await page.getByText('Ändringen är inte gjord: du behöver först en inloggningsnyckel (passkey)').waitFor();
      expect(await page.getByText('Något gick fel').count()).toBe(0);
      expect(await page.getByLabel('Namn', { exact: true }).inputValue()).toBe('Lagersystem');
      await shot(page, `${tag}-refused`);
      if (js) expect(await axeViolations(page)).toEqual([]);

      await confirmByMail(page, owner.email, { js, tag });
      await page.waitForURL((u) => u.pathname === '/company/api-keys');
      // Back, with what she typed, and no prompt now.
      expect(await page.getByLabel('Namn', { exact: true }).inputValue()).toBe('Lagersystem');
      expect(await page.getByLabel('Behörighet').inputValue()).toBe('write');
      expect(await page.getByLabel('Går ut').inputValue()).toBe('2031-01-31');
      expect(await page.locator('.step-up').count()).toBe(0);
      await page.getByRole('button', { name: 'Skapa nyckel' }).click();
      await page.getByRole('heading', { name: 'API-nyckeln är skapad' }).waitFor();
      await shot(page, `${tag}-created`);

      expect(await em().count(ApiKey, { name: 'Lagersystem', scope: 'write', company: owner.company })).toBe(1);
      expect(await em().count(Passkey, { user: owner.id })).toBe(js ? 1 : 0);
      const subjects = await mailSubjects(owner.email);
      expect(subjects[0]).toContain('Bekräfta att det är du');
      if (js) expect(subjects).toContain('En inloggningsnyckel har lagts till på ditt konto – SIM-portalen');
      const trail = await em().find(AuditEvent, { targetId: String(owner.id), kind: 'security' });
      expect(trail.map((r) => r.action)).toEqual(
        expect.arrayContaining(js ? ['stepUpByEmail', 'passkeyAdded'] : ['stepUpByEmail']),
      );
      await close(context);
    });
  }

  it('a user change and a webhook, JS off: the values come back through the step-up', async () => {
    const { owner, member, cookie } = await ownerWithoutPasskey();
    const { context, page } = await pageFor(cookie, { js: false });
    await page.goto(`/company/users/${member.id}`);
    await page.getByLabel('Namn').fill('Mats Nyman');
    await page.getByRole('button', { name: 'Spara' }).click();
    await page.getByText('Ändringen är inte gjord').waitFor();
    expect(await page.getByLabel('Namn').inputValue()).toBe('Mats Nyman');
    await confirmByMail(page, owner.email, { js: false, tag: 'user-js-off' });
    await page.waitForURL((u) => u.pathname === `/company/users/${member.id}`);
    expect(await page.getByLabel('Namn').inputValue()).toBe('Mats Nyman');
    await page.getByRole('button', { name: 'Spara' }).click();
    await page.waitForURL((u) => u.searchParams.get('notice') === 'saved');
    expect((await em().findOneOrFail(User, { id: member.id })).name).toBe('Mats Nyman');

    // Within the 10 minutes a webhook goes through at once.
    await page.goto('/company/webhooks');
    expect(await page.locator('.step-up').count()).toBe(0);
    await context.close();
  });

  for (const width of [DESKTOP.width, MOBILE.width]) {
    it(`the revoke and remove confirm pages with a stale step-up say what is needed (${width} px)`, async () => {
      const { owner, member, cookie } = await ownerWithoutPasskey();
      const fresh = await portal.server.sessionCookie(owner.email);
      const created = await fetch(`${portal.server.url}/api/company/apiKeys`, {
        method: 'POST',
        headers: { cookie: fresh, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Kassa', scope: 'read' }),
      });
      const { id } = (await created.json()) as { id: number };
      const { context, page } = await pageFor(cookie, { js: true, width });
      await page.goto(`/company/api-keys/${id}/revoke`);
      await page.getByRole('button', { name: 'Ja, återkalla' }).click();
      await page.getByRole('alert').getByText('Ändringen är inte gjord').waitFor();
      expect(page.url()).toContain(`/company/api-keys/${id}/revoke`);
      await shot(page, `revoke-refused-${width}`);
      await page.goto(`/company/users/${member.id}/remove`);
      await page.getByRole('button', { name: /Ja, ta bort/ }).click();
      await page.getByRole('alert').getByText('Ändringen är inte gjord').waitFor();
      await shot(page, `remove-refused-${width}`);
      expect(await axeViolations(page)).toEqual([]);
      expect((await em().findOneOrFail(ApiKey, { id })).revokedAt).toBeNull();
      expect((await em().findOneOrFail(User, { id: member.id })).removedAt).toBeNull();
      await context.close();
    });
  }
});
