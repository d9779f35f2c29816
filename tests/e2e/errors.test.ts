// A failing loader blanks only its own route: the form pages have an ErrorBoundary of their own, so the
// header, the back link and the page's heading stay, with a Swedish message (JS on and off). The fault is
// real: the table the loader reads is renamed for the moment, as in tests/api/bounds.test.ts.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '#domain/texts/common.ts';
import { Sim } from '#server/db/entities.ts';
import { newContext } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import type { TestServer } from '#tests/helpers/server.ts';
import { startScreens, stopScreens } from '#tests/helpers/screens.ts';

let server: TestServer;
let browser: Browser;
const newIccid = iccidFactory('8946778');

beforeAll(async () => ({ server, browser } = await startScreens()));
afterAll(() => stopScreens({ server, browser }));

async function withTableAway<T>(table: string, work: () => Promise<T>): Promise<T> {
  const conn = server.services.orm.em.getConnection();
  await conn.execute(`alter table "${table}" rename to "${table}_away"`);
  try {
    return await work();
  } finally {
    await conn.execute(`alter table "${table}_away" rename to "${table}"`);
  }
}

async function expectShell(page: Page, heading: string, back: string) {
  expect(await page.getByRole('link', { name: t.appName }).first().isVisible()).toBe(true);
  expect(await page.getByRole('link', { name: t.back }).getAttribute('href')).toBe(back);
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(heading);
  expect(await page.getByRole('alert').innerText()).toBe(t.error.page);
  expect(await page.getByRole('link', { name: t.error.retry }).isVisible()).toBe(true);
}

describe('a failing loader on a form page', () => {
  for (const js of [false, true]) {
    it(`keeps the layout and the page's heading, with a Swedish message (JS ${js ? 'on' : 'off'})`, async () => {
      const ctx = await newContext(browser, {
        baseURL: server.url,
        js,
        cookie: await server.sessionCookie('anna@demo.test'),
      });
      const page = await ctx.newPage();
      const sim = await server.services.orm.em
        .fork()
        .findOneOrFail(Sim, { status: 'active' }, { orderBy: { id: 'asc' } });
      await withTableAway('sim', async () => {
        const res = await page.goto(`/sims/${sim.id}`);
        expect(res?.status()).toBe(500);
        if (js) await page.waitForFunction(() => '__remixRouter' in window);
        await expectShell(page, t.pages.sim, '/sims');
        expect(await page.content()).not.toMatch(/sim_away|relation|does not exist/i);
      });
      await withTableAway('rate_plan', async () => {
        const res = await page.goto('/add');
        expect(res?.status()).toBe(500);
        await expectShell(page, t.pages.add, '/');
      });
      // The rest of the portal still works, and so does the page once the fault is gone.
      await page.getByRole('link', { name: t.error.retry }).click();
      await page.getByRole('heading', { level: 1, name: t.pages.add }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      await ctx.close();
    });
  }
});

describe('a failing form post with JS', () => {
  it('keeps what was typed and says so; the same form then sends', async () => {
    const ctx = await newContext(browser, {
      baseURL: server.url,
      js: true,
      cookie: await server.sessionCookie('anna@demo.test'),
    });
    const page = await ctx.newPage();
    await page.goto('/add');
    await page.waitForFunction(() => '__remixRouter' in window);
    const iccid = newIccid();
    await page.getByLabel('ICCID').fill(iccid);
    await page.getByLabel('Fakturamärkning').fill('Lager 7');
    await page.getByLabel('Datamängd').selectOption({ label: '500 MB' });
    await withTableAway('sim', async () => {
      await page.getByRole('button', { name: 'Aktivera' }).click();
      await page.getByRole('alert').filter({ hasText: t.error.notSent }).waitFor();
    });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(t.pages.add);
    expect(await page.getByLabel('ICCID').inputValue()).toBe(iccid);
    expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('Lager 7');
    expect(await page.getByLabel('Datamängd').inputValue()).toBe('500');
    await page.getByRole('button', { name: 'Aktivera' }).click();
    await page.waitForURL((u) => u.pathname === '/sims');
    expect(await server.services.orm.em.fork().count(Sim, { iccid })).toBe(1);
    await ctx.close();
  });

  it('keeps the edited SIM form too', async () => {
    const ctx = await newContext(browser, {
      baseURL: server.url,
      js: true,
      cookie: await server.sessionCookie('anna@demo.test'),
    });
    const page = await ctx.newPage();
    const sim = await server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: false } }, { orderBy: { id: 'asc' } });
    await page.goto(`/sims/${sim.id}`);
    await page.waitForFunction(() => '__remixRouter' in window);
    const mark = `Ändrad ${Date.now()}`;
    await page.getByLabel('Fakturamärkning').fill(mark);
    await withTableAway('sim', async () => {
      await page.getByRole('button', { name: 'Spara' }).click();
      await page.getByRole('alert').filter({ hasText: t.error.notSent }).waitFor();
    });
    expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe(mark);
    await page.getByRole('button', { name: 'Spara' }).click();
    await expect
      .poll(async () => (await server.services.orm.em.fork().findOneOrFail(Sim, sim.id)).invoiceLineMark, {
        timeout: 15_000,
      })
      .toBe(mark);
    await ctx.close();
  });
});
