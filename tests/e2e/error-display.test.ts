// Long: every form shows a refusal the one way, and the cases share the page helpers and the plan state reader.
// One way to show a refused form, in a real Chromium with JavaScript on and off: the server's message under the
// field and in a summary at the top (a heading with the count, a link to each field), focused; the values kept;
// no browser bubble stops the post (the forms are noValidate, so the request reaches the server). The plan
// selector names every option to change and shows what the server drew when JS arrives. The SIM page: the
// deactivate dialog names the ICCID, a legacy SIM's page is a view with an information notice.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { t } from '#domain/texts/common.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tForms } from '#domain/texts/forms.ts';
import { Sim } from '#server/db/entities.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { needs } from '#tests/helpers/needs.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946779');

async function addPage(js: boolean, width?: number, theme?: 'dark' | 'light'): Promise<Page> {
  const page = await portal.loggedInPage('anna@demo.test', { js, width });
  if (theme) await page.context().addCookies([{ name: 'theme', value: theme, url: portal.server.url }]);
  await page.goto('/add');
  if (js) await hydrated(page);
  return page;
}

/** React has taken over the page (its fiber is on the page's form), not only loaded. */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const form = document.querySelector('main form') ?? document.querySelector('form');
    return !!form && Object.keys(form).some((k) => k.startsWith('__reactFiber'));
  });
}

/** Presses the submit button and waits for the form's post to reach the server (a document or a data request). */
async function submit(page: Page, button: string, path: string) {
  const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.startsWith(path));
  await page.getByRole('button', { name: button, exact: true }).click();
  await posted;
}

const summary = (page: Page) => page.locator('#error-summary');

/**
 * The plan boxes as the user sees them: checked and disabled, and the selector's text. Only the boxes drawn: while
 * no amount is chosen the page without JS shows a disabled stand-in for each (decision 031), with JS the box itself.
 */
const planState = (page: Page) =>
  page.evaluate(() => {
    const fieldset = document.querySelector<HTMLFieldSetElement>('fieldset.plan-selector')!;
    const boxes = [...fieldset.querySelectorAll<HTMLInputElement>('input[type=checkbox]')]
      .filter((b) => b.checkVisibility())
      .map((b) => ({ checked: b.checked, disabled: b.disabled }));
    return { boxes, text: fieldset.innerText, amount: fieldset.querySelector('select')!.value };
  });

describe('a refused form on /add', () => {
  for (const js of [false, true]) {
    it(`shows the server's message under the field and in a focused summary with a link to it, values kept (JS ${js ? 'on' : 'off'})`, async () => {
      const page = await addPage(js);
      expect(await page.locator('form.card').evaluate((f: HTMLFormElement) => f.noValidate)).toBe(true);
      // Empty and required: the browser's own check would have stopped this post (no request at all).
      await page.getByLabel('Fakturamärkning').fill(`Kvar ${js}`);
      await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
      await submit(page, t.sims.activate, '/add');
      await summary(page)
        .getByRole('heading', { name: tForms.summaryTitle(1) })
        .waitFor();
      expect(await summary(page).getAttribute('role')).toBe('alert');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
      const empty = t.errors.fields.iccid.empty;
      expect(await page.locator('#iccid-error').innerText()).toBe(empty);
      expect(await page.getByLabel('ICCID', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      const link = summary(page).getByRole('link');
      expect(await link.innerText()).toBe(empty);
      expect(await link.getAttribute('href')).toBe('#iccid');
      expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe(`Kvar ${js}`);
      expect(await page.getByLabel('Datamängd').inputValue()).toBe('1000');

      // Too short for the field's pattern: again the server answers, the typed value stays.
      await page.getByLabel('ICCID', { exact: true }).fill('1234');
      await submit(page, t.sims.activate, '/add');
      const length = t.errors.fields.iccid.length;
      await page.locator('#iccid-error', { hasText: length }).waitFor();
      expect(await summary(page).getByRole('link').innerText()).toBe(length);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
      expect(await page.getByLabel('ICCID', { exact: true }).inputValue()).toBe('1234');
      expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe(`Kvar ${js}`);

      // The link leads to the field (with JS the field gets the focus; without, the browser goes to its anchor).
      await summary(page).getByRole('link').click();
      if (js) await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('iccid');
      else await page.waitForURL((u) => u.hash === '#iccid');
      expect(await page.locator('#iccid').isVisible()).toBe(true);

      // Corrected, the same form activates the SIM.
      const iccid = newIccid();
      await page.getByLabel('ICCID', { exact: true }).fill(iccid);
      await page.getByRole('button', { name: t.sims.activate, exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/sims');
      expect(await portal.server.services.orm.em.fork().count(Sim, { iccid })).toBe(1);
      await page.context().close();
    });
  }

  it('names every option to change when both tal & SMS and roaming make the plan impossible (JS off)', async () => {
    const page = await addPage(false);
    const iccid = newIccid();
    await page.getByLabel('ICCID', { exact: true }).fill(iccid);
    // 500 MB exists only without tal & SMS and without roaming.
    await page.getByLabel('Datamängd').selectOption({ label: '500 MB' });
    await page.getByLabel(t.plans.callAndSms).check();
    await page.getByLabel(t.plans.roaming).check();
    await submit(page, t.sims.activate, '/add');
    const callMessage = t.plans.callAndSmsUnavailable('för 500 MB');
    const roamingMessage = t.plans.roamingUnavailable('för 500 MB');
    await summary(page)
      .getByRole('heading', { name: tForms.summaryTitle(2) })
      .waitFor();
    const links = summary(page).getByRole('link');
    expect(await links.allInnerTexts()).toEqual([callMessage, roamingMessage]);
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '#plan-callAndSms',
      '#plan-roaming',
    ]);
    // Under the selector, inside its fieldset, both messages; both boxes marked and pointing to them.
    const fieldset = page.getByRole('group', { name: t.plans.legend });
    const error = fieldset.locator('#plan-error');
    expect(await error.innerText()).toBe(`${callMessage}\n${roamingMessage}`);
    expect(await fieldset.getAttribute('aria-describedby')).toBe('plan-error');
    for (const label of [t.plans.callAndSms, t.plans.roaming]) {
      expect(await page.getByLabel(label).getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel(label).getAttribute('aria-describedby')).toContain('plan-error');
    }
    // The message stands last in the field, under the boxes.
    const order = await fieldset.evaluate((f) => [...f.querySelectorAll('.check, #plan-error')].map((e) => e.id));
    expect(order.at(-1)).toBe('plan-error');
    expect(await page.getByLabel('ICCID', { exact: true }).inputValue()).toBe(iccid);
    expect(await page.getByLabel(t.plans.roaming).isChecked()).toBe(true);
    // The API names both too.
    const res = await fetch(`${portal.server.url}/api/sim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: await portal.server.sessionCookie('anna@demo.test') },
      body: JSON.stringify({
        iccid: newIccid(),
        dataLimit: 500,
        callAndSms: true,
        roaming: true,
        invoiceLineMark: '',
        invoiceLineNote: '',
      }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { issues: { path: string[]; message: string }[] };
    expect(body.issues).toEqual([
      { path: ['callAndSms'], message: callMessage },
      { path: ['roaming'], message: roamingMessage },
    ]);
    await page.context().close();
  });

  for (const theme of ['dark', 'light'] as const) {
    for (const viewport of [DESKTOP, MOBILE]) {
      needs(it, 'chromium')(
        `has no WCAG 2.1 AA violations with errors shown (${viewport.width} px, ${theme} theme)`,
        async () => {
          const page = await addPage(true, viewport.width, theme);
          await submit(page, t.sims.activate, '/add');
          await summary(page)
            .getByRole('heading', { name: tForms.summaryTitle(2) })
            .waitFor();
          await page.locator('#plan-dataLimit-error').waitFor();
          expect(await axeViolations(page)).toEqual([]);
          // Nothing wider than the screen.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
          await page.context().close();
        },
      );
    }
  }
});

describe('the plan selector when JavaScript arrives', () => {
  it('shows the boxes exactly as the server drew them (checked, disabled and texts), on /add and a SIM page', async () => {
    // 50 GB with tal & SMS and roaming: once the rules run, roaming is locked; the server cannot lock it.
    const caller = await import('#tests/helpers/caller.ts');
    const { id } = await (
      await caller.callerFor(portal.server.services, 'anna@demo.test')
    ).sim.activate({
      iccid: newIccid(),
      dataLimit: 50000,
      callAndSms: true,
      roaming: true,
      invoiceLineMark: 'Hydrering',
      invoiceLineNote: '',
    });
    for (const path of ['/add', `/sims/${id}`]) {
      const server = await portal.loggedInPage('anna@demo.test', { js: false });
      await server.goto(path);
      const before = await planState(server);
      const page = await portal.loggedInPage('anna@demo.test', { js: true });
      await page.goto(path);
      await hydrated(page);
      // The selector's effect has run and its render is in the page: its stand-ins for the page without JS (the
      // disabled boxes drawn until JS takes over, decision 031) are gone.
      await page.waitForFunction(() => !document.querySelector('fieldset.plan-selector .needs-amount-box'));
      expect(await planState(page), path).toEqual(before);
      // On /add (no amount yet) what is drawn is disabled both ways: the stand-ins without JS, the boxes with it.
      if (path === '/add')
        expect(before.boxes).toEqual([
          { checked: false, disabled: true },
          { checked: false, disabled: true },
        ]);
      // The rules still run from the user's first change: 50 GB without tal & SMS has no roaming.
      if (path !== '/add') {
        await page.getByLabel(t.plans.callAndSms).uncheck();
        await expect.poll(() => page.getByLabel(t.plans.roaming).isDisabled()).toBe(true);
        expect(await page.getByLabel(t.plans.roaming).isChecked()).toBe(false);
      }
      await server.context().close();
      await page.context().close();
    }
  });
});

describe('the SIM page', () => {
  it("the deactivate dialog (JS) names the SIM's ICCID", async () => {
    const em = portal.server.services.orm.em.fork();
    // Anna's company holds the legacy SIM of the demo data (as tests/e2e/layout.test.ts reads it).
    const legacy = await em.findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: true } });
    const sim = await em.findOneOrFail(
      Sim,
      { status: 'active', ratePlan: { isLegacy: false }, company: legacy.company },
      { orderBy: { id: 'desc' } },
    );
    const page = await portal.loggedInPage('anna@demo.test', { js: true });
    await page.goto(`/sims/${sim.id}`);
    await hydrated(page);
    await page.getByRole('link', { name: t.sims.deactivate }).click();
    const dialog = page.getByRole('dialog', { name: t.sims.confirmTitle });
    await dialog.waitFor();
    expect(await dialog.getByText(sim.iccid).isVisible()).toBe(true);
    expect(await dialog.getAttribute('aria-describedby')).toContain('confirm-iccid');
    await dialog.getByRole('button', { name: t.sims.cancel }).click();
    expect(
      await em
        .fork()
        .findOneOrFail(Sim, sim.id)
        .then((s) => s.status),
    ).toBe('active');
    await page.context().close();
  });

  it('a refused edit shows the summary and the message in the plan field, the typed mark kept (JS off)', async () => {
    const em = portal.server.services.orm.em.fork();
    const legacy = await em.findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: true } });
    const sim = await em.findOneOrFail(
      Sim,
      { status: 'active', ratePlan: { isLegacy: false }, company: legacy.company },
      { orderBy: { id: 'asc' } },
    );
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    await page.goto(`/sims/${sim.id}`);
    expect(await page.locator('form.card').evaluate((f: HTMLFormElement) => f.noValidate)).toBe(true);
    await page.getByLabel(t.sims.mark).fill('Behålls');
    await page.getByLabel('Datamängd').selectOption({ label: '500 MB' });
    await page.getByLabel(t.plans.callAndSms).check();
    await submit(page, t.sims.save, `/sims/${sim.id}`);
    await expectSummaryLinksToInvalidFields(page, 1);
    const message = t.plans.callAndSmsUnavailable('för 500 MB');
    expect(await summary(page).getByRole('link').innerText()).toBe(message);
    expect(await page.locator('#plan-error').innerText()).toBe(message);
    expect(await page.getByLabel(t.sims.mark).inputValue()).toBe('Behålls');
    expect(
      await em
        .fork()
        .findOneOrFail(Sim, sim.id)
        .then((s) => s.invoiceLineMark),
    ).not.toBe('Behålls');
    await page.context().close();
  });

  for (const js of [false, true]) {
    it(`a legacy SIM's page is titled as a view and its notice is information, not an error (JS ${js ? 'on' : 'off'})`, async () => {
      const em = portal.server.services.orm.em.fork();
      const legacy = await em.findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: true } });
      const page = await portal.loggedInPage('anna@demo.test', { js });
      await page.goto(`/sims/${legacy.id}`);
      if (js) await hydrated(page);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(tForms.simView);
      expect(await page.title()).toBe(`${tForms.simView} – ${t.appName}`);
      const notice = page.locator('.notice', { hasText: t.sims.legacy.slice(0, 40) });
      expect(await notice.getAttribute('class')).toBe('notice info');
      expect(await notice.getAttribute('role')).toBe('status');
      expect(await page.locator('.notice.error').count()).toBe(0);
      expect(await page.getByRole('button', { name: t.sims.save }).count()).toBe(0);
      await page.context().close();
    });
  }
});

/** The summary's links, each to a control (or a group of them) that is marked invalid; their number is the heading's. */
async function expectSummaryLinksToInvalidFields(page: Page, count: number) {
  await summary(page)
    .getByRole('heading', { name: tForms.summaryTitle(count) })
    .waitFor();
  const targets = await summary(page)
    .getByRole('link')
    .evaluateAll((links) =>
      links.map((a) => {
        const el = document.getElementById(a.getAttribute('href')!.slice(1));
        const control = el?.matches('input, select, textarea') ? el : el?.querySelector('input, select, textarea');
        return {
          href: a.getAttribute('href'),
          invalid: el?.getAttribute('aria-invalid') ?? control?.getAttribute('aria-invalid'),
        };
      }),
    );
  expect(targets).toHaveLength(count);
  for (const target of targets) expect(target, target.href!).toMatchObject({ invalid: 'true' });
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
}

/** Every form that met the summary: noValidate, so the browser never stops the post with a bubble of its own. */
async function expectNoValidate(page: Page) {
  expect(
    await page
      .locator('#error-summary')
      .evaluate((el) => (el.closest('form') ?? el.parentElement!.querySelector('form'))!.noValidate),
  ).toBe(true);
}

describe("the portal's other forms show a refusal the same way", () => {
  for (const js of [false, true]) {
    it(`the owner's "add user" and the super admin's "add company" (JS ${js ? 'on' : 'off'})`, async () => {
      const owner = await portal.loggedInPage('ella@demo.test', { js });
      await owner.goto('/company');
      if (js) await hydrated(owner);
      const add = owner.getByRole('region', { name: tCompany.addTitle });
      await add.getByLabel(tCompany.email).fill('inte-en-adress');
      await submit(owner, tCompany.add, '/company');
      await expectSummaryLinksToInvalidFields(owner, 2);
      expect(await summary(owner).innerText()).toContain(tAdmin.failedReason);
      expect(await add.getByLabel(tCompany.email).inputValue()).toBe('inte-en-adress');
      await expectNoValidate(owner);
      await owner.context().close();

      const admin = await portal.loggedInPage('admin@demo.test', { js });
      await admin.goto('/admin/companies');
      if (js) await hydrated(admin);
      await submit(admin, tAdmin.companies.add, '/admin/companies');
      await summary(admin).waitFor();
      const links = await summary(admin).getByRole('link').count();
      expect(links).toBeGreaterThan(0);
      await expectSummaryLinksToInvalidFields(admin, links);
      await expectNoValidate(admin);
      await admin.context().close();
    });

    it(`the login form (JS ${js ? 'on' : 'off'})`, async () => {
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js });
      const page = await ctx.newPage();
      await page.goto('/login');
      if (js) await hydrated(page);
      await page.getByLabel(t.login.email).fill('inte-en-adress');
      await submit(page, t.login.submit, '/login');
      await expectSummaryLinksToInvalidFields(page, 1);
      expect(await page.getByLabel(t.login.email).inputValue()).toBe('inte-en-adress');
      await expectNoValidate(page);
      await ctx.close();
    });
  }

  it("feedback and export without JS (with JS the button waits for text, and a refused export is the spec's toast)", async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    await page.goto('/feedback');
    await page.getByLabel(t.feedback.label).fill('   ');
    await submit(page, t.feedback.send, '/feedback');
    await expectSummaryLinksToInvalidFields(page, 1);
    await expectNoValidate(page);
    await page.goto('/export');
    await page.getByLabel(t.export.startMonth, { exact: true }).fill('13');
    await page.getByLabel(t.export.endMonth, { exact: true }).fill('');
    await page.getByRole('button', { name: t.export.submit }).click();
    await page.waitForURL((u) => u.pathname === '/export' && u.search.includes('start_month=13'));
    await expectSummaryLinksToInvalidFields(page, 2);
    await expectNoValidate(page);
    await page.context().close();
  });
});
