// Accessibility: axe-core (WCAG 2.1 AA) on every screen, desktop and 390 px, in the dark and the light theme with JS,
// and in the dark theme without (scripts blocked rather than JS disabled, which axe itself needs; the light theme is
// the same markup, so its colours are read once, with JS); and keyboard use of the dialog. The desktop run with JS
// also reads every screen's words: no English one (tests/helpers/english.ts).
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '#server/db/entities.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { englishOn } from '#tests/helpers/english.ts';

const portal = useScreens();
type As = 'anon' | 'pending' | 'user' | 'owner' | 'admin' | 'acting';
type Theme = 'dark' | 'light';
/** `then`: what the user does on the page before axe reads it (a form sent, a result shown). */
let actingCompanyId: number;
let screens: Array<{ path: string; as: As; then?: (page: Page) => Promise<void> }>;

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const sim = await em.findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: false } });
  const legacy = await em.findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: true } });
  const company = await em.findOneOrFail(Company, { customerNumber: '100001' });
  const anna = await em.findOneOrFail(User, { email: 'anna@demo.test' });
  // The SIM page with usage: a record an hour ago and one a day for 60 days (the meter, the chart, the sessions).
  const hour = 3_600_000;
  await ingestUsage(
    em.fork(),
    'a11y',
    Array.from({ length: 60 }, (_, d) => ({
      recordId: `a11y-${d}`,
      iccid: sim.iccid,
      start: new Date(Date.now() - hour - d * 24 * hour).toISOString(),
      end: new Date(Date.now() - hour / 2 - d * 24 * hour).toISOString(),
      bytesUp: 1_000_000 + d * 10_000,
      bytesDown: 20_000_000 + d * 100_000,
      network: '240-01',
      country: 'SE',
      rat: 'LTE',
    })),
  );
  screens = [
    { path: '/login', as: 'anon' },
    { path: '/login?sent=1', as: 'anon' },
    { path: '/auth/magic?token=not-a-real-token', as: 'anon' },
    { path: '/', as: 'user' },
    { path: '/add', as: 'user' },
    { path: '/add/bulk', as: 'user' },
    // The preview of a pasted list: one already active, one not an ICCID (the outcomes' colours and badges).
    { path: '/add/bulk', as: 'user', then: (page) => bulkPreview(page, `${sim.iccid}\n1234`) },
    { path: '/sims', as: 'user' },
    // The fleet's views by usage: a sort's column headers, a filter's select and its empty or short list.
    { path: '/sims?sort=usage-desc', as: 'user' },
    { path: '/sims?sort=seen-asc&filter=silent7d', as: 'user' },
    // The company's tags (issue 40), and the list narrowed by one.
    { path: '/sims/tags', as: 'user' },
    { path: `/sims/${sim.id}`, as: 'user' },
    // The chart's 90 days and its table opened.
    {
      path: `/sims/${sim.id}?days=90`,
      as: 'user',
      then: (page) => page.getByText('Visa som tabell').click(),
    },
    { path: `/sims/${legacy.id}`, as: 'user' },
    { path: `/sims/${sim.id}/deactivate`, as: 'user' },
    { path: `/sims/deactivate?id=${sim.id}&id=${legacy.id}`, as: 'user' },
    { path: '/export', as: 'user' },
    { path: '/usage', as: 'user' },
    { path: '/usage?granularity=month&groupBy=country', as: 'user' },
    { path: '/usage?granularity=month&groupBy=tag', as: 'user' },
    { path: '/usage?from=2026-13-01', as: 'user' },
    { path: '/', as: 'owner' },
    { path: '/feedback', as: 'user' },
    { path: '/no-such-page', as: 'user' },
    { path: '/', as: 'admin' },
    { path: '/admin', as: 'admin' },
    { path: '/admin/companies', as: 'admin' },
    { path: `/admin/companies/${company.id}`, as: 'admin' },
    { path: `/admin/companies/${company.id}/${anna.id}`, as: 'admin' },
    { path: `/admin/companies/${company.id}/sign-in`, as: 'admin' },
    { path: '/security', as: 'admin' },
    // Sign-in and security: the passkey page of a half-signed-in session, the user's own pages, the owner's settings.
    { path: '/login/passkey', as: 'pending' },
    { path: '/security', as: 'user' },
    { path: '/security/sessions', as: 'user' },
    { path: '/security/confirm?redirectTo=%2Fcompany', as: 'owner' },
    { path: '/company/sign-in', as: 'owner' },
    { path: '/admin/audit', as: 'admin' },
    { path: '/company', as: 'owner' },
    { path: `/company/users/${anna.id}`, as: 'owner' },
    { path: '/company/api-keys', as: 'owner' },
    { path: '/company/webhooks', as: 'owner' },
    { path: '/company/rules', as: 'owner' },
    { path: '/company/activity', as: 'owner' },
    // A super admin acting as the company: the header's acting line with its way back, in the warning colours.
    { path: '/sims', as: 'acting' },
    { path: '/company', as: 'acting' },
  ];
  actingCompanyId = company.id;
});

const emailOf = {
  user: 'anna@demo.test',
  owner: 'ella@demo.test',
  admin: 'admin@demo.test',
  pending: 'anna@demo.test',
  acting: 'admin@demo.test',
};

async function contextFor(
  as: As,
  viewport: typeof DESKTOP,
  js: boolean,
  theme: Theme = 'dark',
): Promise<BrowserContext> {
  const cookie =
    as === 'anon'
      ? undefined
      : await portal.server.sessionCookie(
          emailOf[as],
          as === 'pending' ? { stage: 'passkey' } : as === 'acting' ? { actingCompanyId } : {},
        );
  const ctx = await newContext(portal.browser, { baseURL: portal.server.url, viewport, cookie, theme });
  if (!js) await ctx.route('**/*.js', (route) => route.abort());
  return ctx;
}

/** Pastes a list into /add/bulk with a plan chosen and asks for its preview (nothing is activated). */
async function bulkPreview(page: Page, list: string) {
  await page.getByLabel('ICCID-nummer').fill(list);
  await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
  await page.getByRole('button', { name: 'Förhandsgranska' }).click();
  await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
}

const runs: Array<{ viewport: typeof DESKTOP; js: boolean; theme: Theme }> = [DESKTOP, MOBILE].flatMap((viewport) => [
  { viewport, js: true, theme: 'dark' as const },
  { viewport, js: true, theme: 'light' as const },
  { viewport, js: false, theme: 'dark' as const },
]);

for (const { viewport, js, theme } of runs) {
  // 35 screens as six kinds of caller, each read by axe: about 20 s alone, about a minute on a loaded machine.
  it(
    `every screen has no WCAG 2.1 AA violations at ${viewport.width} px, ${theme} theme, JS ${js ? 'on' : 'off'}`,
    { timeout: 300_000 },
    async () => {
      const problems: string[] = [];
      for (const as of ['anon', 'pending', 'user', 'owner', 'admin', 'acting'] as const) {
        const ctx = await contextFor(as, viewport, js, theme);
        const page = await ctx.newPage();
        for (const screen of screens.filter((s) => s.as === as)) {
          await page.goto(screen.path);
          if (js) await page.waitForFunction(() => '__remixRouter' in window);
          // The theme cookie is what the server renders from: a screen in the other theme would test nothing.
          expect(await page.locator('html').getAttribute('data-theme'), screen.path).toBe(theme);
          await screen.then?.(page);
          const shown = `${screen.path}${screen.then ? ' (after its form)' : ''} (${as})`;
          for (const v of await axeViolations(page)) problems.push(`${shown}: ${v}`);
          // One run reads the words too (the text is the same in every theme and width): no English (issue 41).
          if (js && theme === 'dark' && viewport === DESKTOP) {
            for (const word of await englishOn(page)) problems.push(`${shown}: English "${word}"`);
            // And the boxes: a card inside a card doubles the padding (issue 41); the inner one is a plain section.
            const nested = await page.locator('.card .card').count();
            if (nested) problems.push(`${shown}: ${nested} card(s) inside a card`);
          }
        }
        await ctx.close();
      }
      expect(problems).toEqual([]);
    },
  );
}

it('axe, as the screens read it, finds a missing text alternative and too little contrast', async () => {
  const ctx = await newContext(portal.browser, { baseURL: portal.server.url });
  const page = await ctx.newPage();
  await page.setContent(
    '<html lang="sv"><head><title>t</title></head><body><main><h1>Rubrik</h1>' +
      '<input type="image" src="/favicon.ico"><p style="color:#777;background:#888">Svag text</p></main></body></html>',
  );
  const found = (await axeViolations(page)).map((v) => v.split(' ')[0]);
  expect(found).toEqual(expect.arrayContaining(['input-image-alt', 'color-contrast']));
  await ctx.close();
});

describe('keyboard only', () => {
  it('reaches every control of the menu and shows a visible focus', async () => {
    const ctx = await contextFor('admin', DESKTOP, true);
    const page = await ctx.newPage();
    await page.goto('/');
    await page.waitForFunction(() => '__remixRouter' in window);
    const seen: string[] = [];
    while (!seen.includes('Logga ut') && seen.length < 20) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return {
          text: (el.textContent ?? '').trim(),
          outline: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
        };
      });
      seen.push(info.text);
      expect(info.outline, `focus on "${info.text}" is visible`).toBe(true);
    }
    for (const label of ['Aktivera SIM-kort', 'Visa SIM-kort', 'Lämna feedback', 'Admin', 'Logga ut'])
      expect(seen).toContain(label);
    await ctx.close();
  });

  it('the confirm dialog opens from the keyboard, traps focus and closes with Escape', async () => {
    const sim = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: false } });
    const ctx = await contextFor('user', DESKTOP, true);
    const page = await ctx.newPage();
    await page.goto(`/sims/${sim.id}`);
    await page.waitForFunction(() => '__remixRouter' in window);
    await page.getByRole('link', { name: 'Avaktivera' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Ta bort SIM-kort' });
    await dialog.waitFor();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      const inside = await page.evaluate(
        () => !!document.activeElement?.closest('dialog') || document.activeElement === document.body,
      );
      expect(inside).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await portal.server.services.orm.em.fork().findOneOrFail(Sim, { id: sim.id })).status).toBe('active');
    await ctx.close();
  });
});
