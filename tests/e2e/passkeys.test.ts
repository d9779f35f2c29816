// Long: one story of one user's passkeys (added, its recovery codes kept, then used to sign in and step up), told in order.
// Passkeys through the pages in real Chromium with the DevTools protocol's virtual authenticator (a platform
// passkey with user verification): adding one on /security (recovery codes once), the e-mail link and then the
// passkey, the passkey alone from /login, the super admin's forced first passkey and step-up before acting as a
// company, a recovery code without JavaScript, removing a passkey; a replayed answer and an answer to another
// session's challenge are refused at the door; axe and 390 px on the new pages.
import { readFileSync } from 'node:fs';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AuditEvent, Company, Session, User } from '#server/db/entities.ts';
import { axeViolations, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { needs } from '#tests/helpers/needs.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { linkIn } from '#tests/helpers/smtp.ts';

const portal = useScreens({ smtp: true });

async function withPasskeys(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  return addAuthenticator(cdp);
}

/** A (further) platform authenticator with user verification; its id, to remove it again. */
async function addAuthenticator(cdp: CDPSession): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function browserPage(opts: { js?: boolean; email?: string; width?: number } = {}) {
  const cookie = opts.email ? await portal.server.sessionCookie(opts.email) : undefined;
  const context = await newContext(portal.browser, {
    baseURL: portal.server.url,
    js: opts.js,
    cookie,
    viewport: opts.width ? MOBILE : undefined,
  });
  const page = await context.newPage();
  const authenticator = opts.js !== false ? await withPasskeys(context, page) : null;
  return { context, page, authenticator };
}

/** The e-mail link flow up to the page after "Logga in" (the link from the real mail). */
async function signInByLink(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-postadress').fill(email);
  await page.getByLabel('E-postadress').press('Enter');
  await page.getByText('Om det finns ett konto för adressen har vi skickat en inloggningslänk').waitFor();
  await portal.server.services.settled();
  await page.goto(linkIn(portal.smtp.to(email).at(-1)!.raw));
  await page.getByRole('button', { name: 'Logga in' }).click();
}

async function latestSession(email: string) {
  const em = portal.server.services.orm.em.fork();
  const user = await em.findOneOrFail(User, { email });
  return em.findOne(Session, { user }, { orderBy: { createdAt: 'desc' } });
}

async function securityActions(email: string) {
  const em = portal.server.services.orm.em.fork();
  const user = await em.findOneOrFail(User, { email });
  const rows = await em.find(AuditEvent, { targetId: String(user.id), kind: 'security' }, { orderBy: { id: 'asc' } });
  return rows.map((r) => ({ action: r.action, after: r.after as Record<string, unknown> | null }));
}

let annaCodes: string[] = [];

needs(describe, 'chromium')('passkeys in the browser', () => {
  it('the super admin must add a passkey at the first sign-in, then steps up before acting as a company', async () => {
    const { context, page } = await browserPage();
    await signInByLink(page, 'admin@demo.test');
    await page.waitForURL((u) => u.pathname === '/login/passkey');
    await page.getByRole('heading', { name: 'Lägg till en inloggningsnyckel' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Lägg till inloggningsnyckel' }).click();
    await page.getByText('Inloggningsnyckel är tillagd och du är inloggad.').waitFor();
    expect(await page.locator('.recovery-codes li').count()).toBe(10);
    await page.getByRole('link', { name: 'Fortsätt' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect((await latestSession('admin@demo.test'))?.stage).toBe('full');

    // An older session: the step-up has run out.
    const em = portal.server.services.orm.em.fork();
    const admin = await em.findOneOrFail(User, { email: 'admin@demo.test' });
    await em.nativeUpdate(Session, { user: admin }, { steppedUpAt: null });
    const company = await em.findOneOrFail(Company, { customerNumber: '100001' });
    await page.goto(`/admin/companies/${company.id}`);
    const prompt = page.getByText('Ändringar här kräver att du först bekräftar att det är du');
    await prompt.waitFor();
    await page.getByRole('button', { name: 'Logga in som detta företag' }).click();
    await page.getByText('Bekräfta att det är du med din inloggningsnyckel').waitFor();
    await page.getByRole('button', { name: 'Bekräfta med inloggningsnyckel' }).click();
    await prompt.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Logga in som detta företag' }).click();
    await page.getByText('Du agerar som Demo AB').waitFor();
    expect((await securityActions('admin@demo.test')).map((e) => e.action)).toEqual(
      expect.arrayContaining(['passkeyAdded', 'recoveryCodesCreated', 'signIn']),
    );
    await context.close();
  });

  it('adds a passkey on /security (codes shown once), signs in with link + passkey and with the passkey alone', async () => {
    const { context, page, authenticator } = await browserPage({ email: 'anna@demo.test' });
    await page.goto('/security');
    await page.getByText('Du har inga inloggningsnycklar ännu.').waitFor();
    await page.getByRole('link', { name: 'Inloggningar' }).waitFor();
    await page.getByLabel('Namn på inloggningsnyckeln').fill('Jobbdator');
    await page.getByRole('button', { name: 'Lägg till inloggningsnyckel' }).click();
    await page.getByText('Inloggningsnyckel Jobbdator är tillagd.').waitFor();
    annaCodes = await page.locator('.recovery-codes li').allInnerTexts();
    expect(annaCodes).toHaveLength(10);
    // Kept as the user likes: a text file, the clipboard, a printout of the codes alone.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Ladda ner som textfil' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('sim-portalen-aterstallningskoder.txt');
    const text = readFileSync(await file.path(), 'utf8');
    expect(text.split('\n').filter((l) => /^[a-z0-9]{4}-/.test(l))).toEqual(annaCodes);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Kopiera' }).click();
    await page.getByRole('button', { name: 'Kopierad' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(annaCodes.join('\n'));
    expect(await page.getByRole('button', { name: 'Skriv ut' }).isVisible()).toBe(true);
    await page.locator('.recovery-print').screenshot({ path: 'test-results/recovery-codes.png' });
    await page.emulateMedia({ media: 'print' });
    const seen = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => getComputedStyle(el).visibility === 'visible' && el.checkVisibility());
    expect(await seen('header')).toBe(false);
    expect(await seen('.recovery-codes li')).toBe(true);
    expect(await seen('.recovery-actions')).toBe(false);
    await page.emulateMedia({ media: 'screen' });
    await page.getByRole('cell', { name: 'Jobbdator', exact: true }).waitFor();
    await page.getByText('Du har 10 oanvända återställningskoder.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Shown once: not after a reload.
    await page.reload();
    await page.getByRole('cell', { name: 'Jobbdator', exact: true }).waitFor();
    expect(await page.locator('.recovery-codes').count()).toBe(0);

    // Signed out, the link and then the passkey.
    await context.clearCookies();
    await signInByLink(page, 'anna@demo.test');
    await page.waitForURL((u) => u.pathname === '/login/passkey');
    await page.getByRole('heading', { name: 'Bekräfta inloggningen' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Bekräfta med din inloggningsnyckel' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.locator('header .usermenu').waitFor();
    expect(await latestSession('anna@demo.test')).toMatchObject({ stage: 'full', method: 'link' });

    // Signed out, the passkey alone from /login.
    await context.clearCookies();
    await page.goto('/login?redirectTo=%2Fsecurity');
    await page.getByRole('button', { name: 'Logga in med inloggningsnyckel' }).click();
    await page.waitForURL((u) => u.pathname === '/security');
    expect(await latestSession('anna@demo.test')).toMatchObject({ stage: 'full', method: 'passkey' });
    const signIns = (await securityActions('anna@demo.test')).filter((e) => e.action === 'signIn');
    expect(signIns.map((e) => e.after?.method)).toEqual(['link', 'passkey']);

    // A second passkey, then removing it (the passkey sign-in counts as a step-up). The authenticator that holds
    // the first one is refused by the browser (the server lists it as already added); another one is taken.
    await page.getByLabel('Namn på inloggningsnyckeln').fill('Reserv');
    await page.getByRole('button', { name: 'Lägg till inloggningsnyckel' }).click();
    await page.getByText('Den inloggningsnyckeln är redan tillagd.').waitFor();
    const { cdp, authenticatorId } = authenticator!;
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await addAuthenticator(cdp);
    await page.getByRole('button', { name: 'Lägg till inloggningsnyckel' }).click();
    await page.getByText('Inloggningsnyckel Reserv är tillagd.').waitFor();
    expect(await page.locator('.recovery-codes').count()).toBe(0);
    await page.getByRole('button', { name: 'Ta bort inloggningsnyckeln Reserv' }).click();
    await page.getByText('Inloggningsnyckel Reserv är borttagen.').waitFor();
    // The action's answer (its notice) can come before the list is loaded again: wait for the row to go.
    await page.getByRole('cell', { name: 'Reserv', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Jobbdator', exact: true }).waitFor();
    expect((await securityActions('anna@demo.test')).map((e) => e.action)).toContain('passkeyRemoved');
    await context.close();
  });

  it('a recovery code signs in at /login/passkey without JavaScript, once', async () => {
    expect(annaCodes.length).toBe(10);
    for (const attempt of ['first', 'again'] as const) {
      const { context, page } = await browserPage({ js: false });
      await signInByLink(page, 'anna@demo.test');
      await page.waitForURL((u) => u.pathname === '/login/passkey');
      await page.getByText('kräver att JavaScript är påslaget').waitFor();
      await page.getByLabel('Återställningskod').fill(annaCodes[0]!);
      await page.getByRole('button', { name: 'Använd koden' }).click();
      if (attempt === 'first') {
        await page.waitForURL((u) => u.pathname === '/');
        expect(await latestSession('anna@demo.test')).toMatchObject({ stage: 'full', method: 'recovery' });
      } else {
        await page.getByText('Koden stämmer inte eller är redan använd.').waitFor();
        expect(new URL(page.url()).pathname).toBe('/login/passkey');
      }
      await context.close();
    }
    expect((await securityActions('anna@demo.test')).map((e) => e.action)).toContain('recoveryCodeUsed');
  });

  it('refuses a replayed answer and an answer to another session’s challenge', async () => {
    // anna's passkey lives in the first page's authenticator only: register one here to step up with.
    const { context, page } = await browserPage({ email: 'ella@demo.test' });
    await page.goto('/security');
    await page.getByRole('button', { name: 'Lägg till inloggningsnyckel' }).click();
    // (A retry of this test finds the first try's passkey: the name's number is not fixed.)
    await page.getByText(/Inloggningsnyckel Inloggningsnyckel \d+ är tillagd\./).waitFor();

    // Capture the step-up answer without letting it reach the server.
    let captured = '';
    await page.route('**/auth/passkey/verify', async (route) => {
      captured = route.request().postData() ?? '';
      await route.abort();
    });
    await page.goto('/security/confirm?redirectTo=%2Fsecurity');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Bekräfta med inloggningsnyckel' }).click();
    // The ceremony (options, the authenticator, the answer) takes more than poll's default second on a loaded machine.
    await expect.poll(() => captured, { timeout: 20_000 }).not.toBe('');
    const send = (ctx: BrowserContext) =>
      ctx.request.post('/auth/passkey/verify', {
        data: captured,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
      });

    // Another session of the same user: its challenge was not given to it.
    const other = await newContext(portal.browser, {
      baseURL: portal.server.url,
      cookie: await portal.server.sessionCookie('ella@demo.test', { steppedUp: false }),
    });
    const foreign = await send(other);
    expect(foreign.status()).toBe(400);
    expect((await foreign.json()).error).toBeTruthy();
    // The session it was given to: accepted once, then refused (the challenge is gone).
    expect((await send(context)).status()).toBe(200);
    expect((await send(context)).status()).toBe(400);
    // GET is not a door.
    expect((await other.request.get('/auth/passkey/options')).status()).toBe(405);
    await other.close();
    await context.close();
  });

  it('the new pages pass axe at 390 px and do not scroll sideways', async () => {
    const { context, page } = await browserPage({ email: 'anna@demo.test', width: MOBILE.width });
    for (const path of ['/security', '/security/confirm?redirectTo=%2Fcompany', '/login']) {
      await page.goto(path);
      if (path === '/login') {
        // Signed in: /login goes on to the start page; check it signed out.
        await context.clearCookies();
        await page.goto(path);
        await page.getByRole('button', { name: 'Logga in med inloggningsnyckel' }).waitFor();
      }
      expect(await axeViolations(page), path).toEqual([]);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(MOBILE.width);
    }
    await context.close();
  });
});
