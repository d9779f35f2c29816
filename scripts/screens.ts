// npm run screens: screenshots of the main pages into docs/screens/, to look at and to show in the README. Starts the
// production build (BUILD_DIR, default build-screens; built when older than the sources) on a fresh database with the
// demo data, signs in as a member, an owner and a super admin as the tests do (a session row, no e-mail), and
// takes each page at 1280x800 and 390x844 in the dark and the light theme: <page>-<width>-<theme>.png.
//
//   SCREENS_ONLY=sims,add   only these pages (a configured portal: SUPPORT_EMAIL and PRICE_LIST_URL set, as in production)
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

process.env.BUILD_DIR ??= 'build-screens';
process.env.NODE_ENV ??= 'production';

type As = 'anon' | 'member' | 'owner' | 'admin' | 'acting';
const EMAIL: Record<Exclude<As, 'anon' | 'acting'>, string> = {
  member: 'anna@demo.test',
  owner: 'ella@demo.test',
  admin: 'admin@demo.test',
};
/** The pages: one file name each, the path, who looks, and what is done before the picture. */
type Shot = {
  name: string;
  path: string | ((ids: Ids) => string);
  as: As;
  open?: string;
  /** Also at 1280 px (the phone's menu is there only at 390). */
  wide?: boolean;
  act?: (tab: Page) => Promise<void>;
};
type Ids = { sim: number; legacy: number; company: number };
const PAGES: Shot[] = [
  { name: 'login', path: '/login', as: 'anon' },
  { name: 'home', path: '/', as: 'member' },
  { name: 'sims', path: '/sims', as: 'member' },
  // Two rows ticked: the toolbar of the ticked rows.
  { name: 'sims-ticked', path: '/sims', as: 'member', act: (tab) => tickRows(tab, 2) },
  { name: 'sim', path: (ids) => `/sims/${ids.sim}`, as: 'member' },
  { name: 'sim-legacy', path: (ids) => `/sims/${ids.legacy}`, as: 'member' },
  { name: 'add', path: '/add', as: 'member' },
  // Sent empty: the error summary at the top and each message under its field.
  { name: 'add-errors', path: '/add', as: 'member', act: (tab) => submitEmpty(tab) },
  { name: 'bulk', path: '/add/bulk', as: 'member' },
  // A list with good rows and problems: the preview's counts, badges and "Visa bara problem".
  { name: 'bulk-preview', path: '/add/bulk', as: 'member', act: (tab) => previewList(tab) },
  { name: 'export', path: '/export', as: 'member' },
  { name: 'feedback', path: '/feedback', as: 'member' },
  { name: 'company', path: '/company', as: 'owner' },
  { name: 'api-keys', path: '/company/api-keys', as: 'owner' },
  { name: 'webhooks', path: '/company/webhooks', as: 'owner' },
  { name: 'admin', path: '/admin/companies', as: 'admin' },
  { name: 'admin-company', path: (ids) => `/admin/companies/${ids.company}`, as: 'admin' },
  { name: 'audit', path: '/admin/audit', as: 'admin' },
  { name: 'security', path: '/security', as: 'member' },
  // A super admin acting as Demo AB: the header's acting line.
  { name: 'acting', path: '/company', as: 'acting' },
  // The phone's folded sections, opened (a <details>, no JavaScript needed).
  { name: 'menu', path: '/sims', as: 'owner', open: '.appnav-narrow summary' },
  // The user menu, opened: its items one under the other, left-aligned.
  { name: 'usermenu', path: '/sims', as: 'member', open: '.usermenu summary', wide: true },
];

async function tickRows(tab: Page, n: number) {
  const boxes = tab.locator('table.sims td.select label');
  for (let i = 0; i < n; i++) await boxes.nth(i).click();
}

async function submitEmpty(tab: Page) {
  await Promise.all([
    tab.waitForURL('**/add', { waitUntil: 'networkidle' }),
    tab.locator('main form[method="post"] button[type="submit"]').last().click(),
  ]);
  await tab.locator('.error-summary, [role="alert"]').first().waitFor({ timeout: 30_000 });
}

async function previewList(tab: Page) {
  const { withCheckDigit } = await import('#domain/sims/iccid.ts');
  const fresh = (n: number) =>
    withCheckDigit(`89460999${String(Date.now() % 1e8).padStart(8, '0')}${String(n).padStart(3, '0')}`);
  const [first, second, third] = [fresh(1), fresh(2), fresh(3)];
  const bad = `${first.slice(0, -1)}${(Number(first.slice(-1)) + 1) % 10}`;
  await tab.fill('#iccids', [first, second, third, bad, second].join('\n'));
  await tab.selectOption('select[name="dataLimit"]', { index: 1 });
  await tab
    .getByRole('button', { name: /Förhandsgranska/ })
    .first()
    .click();
  await tab.locator('.bulk-counts, [data-testid="bulk-counts"]').first().waitFor({ timeout: 30_000 });
  // On a wide screen the preview sits beside the form: the page from its top.
  if ((tab.viewportSize()?.width ?? 0) > 700) await tab.evaluate(() => window.scrollTo(0, 0));
}

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const THEMES = ['dark', 'light'] as const;

async function main() {
  const { build, buildIsStale, root } = await import('#scripts/build.js');
  if (buildIsStale()) build();
  const { startTestServer } = await import('#tests/helpers/server.ts');
  const { launchBrowser, newContext } = await import('#tests/helpers/browser.ts');
  const out = path.join(root, 'docs/screens');
  mkdirSync(out, { recursive: true });
  const only = process.env.SCREENS_ONLY?.split(',');
  const [server, browser] = await Promise.all([
    startTestServer({
      env: { SUPPORT_EMAIL: 'support@demo.test', PRICE_LIST_URL: 'https://www.operator.example.se/foretag/prislista' },
    }),
    launchBrowser(),
  ]);
  try {
    const cookies = new Map<As, string | undefined>([['anon', undefined]]);
    for (const [as, email] of Object.entries(EMAIL)) cookies.set(as as As, await server.sessionCookie(email));
    const { Company } = await import('#server/db/entities.ts');
    const { Sim } = await import('#server/db/entities.ts');
    const em = server.services.orm.em.fork();
    const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
    const ids: Ids = {
      company: demo.id,
      sim: (await em.findOneOrFail(Sim, { company: demo, status: 'active', ratePlan: { isLegacy: false } })).id,
      legacy: (await em.findOneOrFail(Sim, { company: demo, status: 'active', ratePlan: { isLegacy: true } })).id,
    };
    cookies.set('acting', await server.sessionCookie(EMAIL.admin, { actingCompanyId: demo.id }));
    for (const page of PAGES.filter((p) => !only || only.includes(p.name))) {
      for (const viewport of SIZES) {
        if (page.open && !page.wide && viewport.width > 700) continue;
        for (const theme of THEMES) {
          const ctx = await newContext(browser, { baseURL: server.url, viewport, cookie: cookies.get(page.as) });
          await ctx.addCookies([{ name: 'theme', value: theme, url: server.url }]);
          const tab = await ctx.newPage();
          await tab.goto(typeof page.path === 'string' ? page.path : page.path(ids), { timeout: 60_000 });
          await tab.waitForFunction(() => '__remixRouter' in window, null, { timeout: 60_000 });
          if (page.open) await tab.click(page.open, { timeout: 10_000 });
          await page.act?.(tab);
          const file = path.join(out, `${page.name}-${viewport.width}-${theme}.png`);
          await tab.screenshot({ path: file, timeout: 30_000 });
          console.log(path.relative(root, file));
          await ctx.close();
        }
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
