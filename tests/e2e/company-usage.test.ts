// The company's usage page (/usage) and the home page's overview in Chromium, with JS on and off, at 1280 and 390 px,
// in both themes: the period's form in the address, by plan and by country, a bad period next to its field, the same
// rows as CSV and XLSX downloads (contents read back), the overview's figures and links. Screenshots in test-results/.
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, RatePlan, Sim } from '#server/db/entities.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { swedishDay } from '#domain/usage/time.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { companyWithOwner } from '#tests/helpers/company.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { earlierToday } from '#tests/helpers/usage.ts';

const portal = useScreens();
const HOUR = 3_600_000;
let today = '';
let plan = '';
let iccids: string[] = [];

let owner = '';

beforeAll(async () => {
  // A company of its own (the demo's usage is the demo's): an owner and three SIMs on two plans.
  const made = await companyWithOwner(portal.server, 'Forbrukning', 'E2E');
  owner = made.ownerEmail;
  const em = portal.server.services.orm.em.fork();
  const company = await em.findOneOrFail(Company, made.companyId);
  const [p1, p2] = await em.find(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' }, limit: 2 });
  if (!p1 || !p2) throw new Error('the demo has too few plans');
  const newIccid = iccidFactory('8946933');
  const created = [p1, p2, p2].map((ratePlan) =>
    em.create(Sim, { iccid: newIccid(), company, ratePlan, status: 'active', activatedAt: new Date() }),
  );
  await em.flush();
  const sims = created.map((s, i) => ({ iccid: s.iccid, description: (i ? p2 : p1).description }));
  iccids = sims.map((s) => s.iccid);
  plan = p1.description;
  // An hour ago in Sweden, in Norway, and without a country; and a record 5 days ago.
  const now = Date.now();
  const at = (ms: number) => new Date(now - ms).toISOString();
  // Today's records: an hour ago, but never yesterday's (CI runs in the first hour after a Swedish midnight too).
  const recent = earlierToday(now, HOUR);
  const records = sims.flatMap((s, i) => [
    {
      recordId: `e2e-${i}`,
      iccid: s.iccid,
      start: new Date(recent).toISOString(),
      end: new Date(Math.min(recent + HOUR / 2, now)).toISOString(),
      bytesUp: 1_000_000 * (i + 1),
      bytesDown: 50_000_000 * (i + 1),
      ...(i === 2 ? {} : { country: i ? 'NO' : 'SE' }),
    },
    {
      recordId: `e2e-old-${i}`,
      iccid: s.iccid,
      start: at(5 * 24 * HOUR),
      end: at(5 * 24 * HOUR - HOUR / 4),
      bytesUp: 1000,
      bytesDown: 2000,
      country: 'SE',
    },
  ]);
  // Tags before the usage (it counts under the tags its SIM has then): the first two SIMs Göteborg, the second a
  // formula-like tag as well (a file shows it as text).
  for (const [i, name] of [
    [0, 'Göteborg'],
    [1, 'Göteborg'],
    [1, '=Kylrum'],
  ] as const)
    await em.execute('insert into sim_tag (company_id, sim_id, tag) values (?, ?, ?)', [
      company.id,
      created[i]?.id,
      name,
    ]);
  await ingestUsage(em, 'e2e', records);
  today = swedishDay(new Date(now));
});

const widths = [DESKTOP, MOBILE];
const variants = widths.flatMap((viewport) =>
  [true, false].map((js) => ({ viewport, js, theme: js && viewport === DESKTOP ? 'light' : 'dark' }) as const),
);

async function pageFor(v: (typeof variants)[number]) {
  const cookie = await portal.server.sessionCookie(owner);
  const ctx = await newContext(portal.browser, {
    baseURL: portal.server.url,
    js: v.js,
    viewport: v.viewport,
    cookie,
    theme: v.theme,
  });
  return ctx.newPage();
}
const tag = (v: (typeof variants)[number]) => `${v.viewport.width}-${v.js ? 'js' : 'nojs'}-${v.theme}`;

describe('/usage', () => {
  for (const v of variants)
    it(`shows the period by plan and by country from a GET form (${tag(v)})`, async () => {
      const page = await pageFor(v);
      await page.goto('/usage');
      await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Förbrukning');
      // This month by plan, per day: today's row of the first SIM's plan.
      const table = page.locator('table.usage-table');
      await expect.poll(() => table.innerText()).toContain(today);
      expect(await table.innerText()).toContain(plan);
      expect(await page.getByText('Data till och med').count()).toBe(1);
      // The days of the period as a chart (an image named by its caption), the numbers behind a <details>.
      // (None on a month's first day: a period of one day has no chart.)
      expect(await page.locator('figure.daychart svg[role="img"]').count()).toBe(today.endsWith('-01') ? 0 : 1);
      await page.screenshot({ path: `test-results/usage-plan-${tag(v)}.png`, fullPage: true });
      // By country per month, through the form: all of it in the address.
      await page.getByLabel('Per', { exact: true }).selectOption('month');
      await page.getByLabel('Uppdelat på').selectOption('country');
      await page.getByRole('button', { name: 'Visa' }).click();
      await page.waitForURL((u) => u.searchParams.get('groupBy') === 'country');
      expect(new URL(page.url()).searchParams.get('granularity')).toBe('month');
      await expect.poll(() => table.innerText()).toContain('NO');
      const text = await table.innerText();
      expect(text).toContain('Okänt land');
      expect(text).toContain(today.slice(0, 7));
      await page.screenshot({ path: `test-results/usage-country-${tag(v)}.png`, fullPage: true });
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      // A bad period: the message next to its field, the summary at the top, the form keeps what was typed.
      await page.goto('/usage?from=2026-13-01&to=2026-11-30');
      await expect.poll(() => page.locator('#usage-from-error').innerText()).toMatch(/^from är inget datum/);
      expect(await page.locator('.error-summary').count()).toBe(1);
      await page.screenshot({ path: `test-results/usage-error-${tag(v)}.png`, fullPage: true });
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    });

  it('by tag: the page without JS on a phone and the CSV, a formula-like tag as text', async () => {
    const page = await pageFor({ viewport: MOBILE, js: false, theme: 'dark' });
    await page.goto('/usage');
    await page.getByLabel('Per', { exact: true }).selectOption('month');
    await page.getByLabel('Uppdelat på').selectOption('tag');
    await page.getByRole('button', { name: 'Visa' }).click();
    await page.waitForURL((u) => u.searchParams.get('groupBy') === 'tag');
    const table = page.locator('table.usage-table');
    const text = await table.innerText();
    expect(text).toContain('Göteborg');
    expect(text).toContain('=Kylrum');
    expect(await table.locator('th', { hasText: 'Tagg' }).count()).toBeGreaterThan(0);
    // The rows overlap (a SIM with two tags is under each): no sum, and the page says why.
    expect(await table.locator('tfoot').count()).toBe(0);
    expect(await page.getByText('så ett SIM-kort med flera taggar räknas under var och en').count()).toBe(1);
    await page.screenshot({ path: `test-results/usage-tag-390-nojs.png`, fullPage: true });
    await page.context().close();
    const cookie = await portal.server.sessionCookie(owner);
    const csv = await fetch(
      `${portal.server.url}/usage.csv?from=${today.slice(0, 8)}01&to=${today}&granularity=month&groupBy=tag`,
      {
        headers: { cookie },
      },
    );
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Månad;Tagg;Skickat (byte);Mottaget (byte);Totalt (byte);Poster');
    const month = today.slice(0, 7);
    // The two SIMs' records of the month (today's and 5 days ago, when that is this month).
    const gbg = lines.find((l) => l.startsWith(`${month};Göteborg;`));
    expect(gbg).toBeDefined();
    expect(lines.some((l) => l.startsWith(`${month};'=Kylrum;`))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${month};=Kylrum`))).toBe(false);
  });

  it('downloads the same rows as CSV and XLSX', async () => {
    const cookie = await portal.server.sessionCookie(owner);
    const query = `from=${today.slice(0, 8)}01&to=${today}&granularity=month&groupBy=country`;
    const csv = await fetch(`${portal.server.url}/usage.csv?${query}`, {
      headers: { cookie, 'accept-encoding': 'gzip, br' },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="Forbrukning_.*_country\.csv"/);
    const body = Buffer.from(await csv.arrayBuffer());
    // UTF-8 with a BOM, for Excel (fetch's text() would drop it).
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Månad;Land;Skickat (byte);Mottaget (byte);Totalt (byte);Poster');
    const month = today.slice(0, 7);
    expect(lines).toContain(`${month};NO;2000000;100000000;102000000;1`);
    expect(lines).toContain(`${month};Okänt land;3000000;150000000;153000000;1`);
    const xlsx = await fetch(`${portal.server.url}/usage.xlsx?${query.replace('country', 'plan')}`, {
      headers: { cookie },
    });
    expect(xlsx.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await xlsx.arrayBuffer());
    const sheet = book.getWorksheet('Förbrukning');
    expect(sheet?.getRow(1).values).toEqual([
      undefined,
      'Månad',
      'Plankod',
      'Prisplan',
      'Skickat (byte)',
      'Mottaget (byte)',
      'Totalt (byte)',
      'Poster',
    ]);
    const rows = (sheet?.getSheetValues() ?? []).slice(2) as unknown[][];
    expect(rows.some((r) => r[3] === plan && typeof r[6] === 'number')).toBe(true);
    // A bad period: 400 { error } for a client, the page again for a browser.
    const bad = await fetch(`${portal.server.url}/usage.csv?from=x`, { headers: { cookie } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/^from /);
  });
});

describe('the home page overview', () => {
  for (const v of variants)
    it(`shows the company's figures and links into the list (${tag(v)})`, async () => {
      const page = await pageFor(v);
      await page.goto('/');
      // The spec's buttons first, as they were.
      const menu = page.getByRole('navigation', { name: 'Start' });
      expect(await menu.getByRole('link', { name: 'Visa SIM-kort' }).isVisible()).toBe(true);
      const overview = page.getByRole('region', { name: 'Översikt' });
      await expect.poll(() => overview.innerText()).toContain('Aktiva SIM-kort');
      const text = await overview.innerText();
      for (const label of ['Förbrukning i dag', 'Denna månad', 'Förra månaden', 'Ingen trafik på 24 timmar'])
        expect(text).toContain(label);
      // The top SIMs: the third SIM used most, with its plan's amount.
      const top = overview.locator('table.overview-top tbody tr');
      expect(await top.first().innerText()).toContain(iccids[2]);
      expect(await overview.getByRole('link', { name: 'Över 80 % av datamängden' }).getAttribute('href')).toBe(
        '/sims?filter=over80',
      );
      expect(await overview.getByRole('link', { name: /Ingen trafik på 24 timmar/ }).getAttribute('href')).toBe(
        '/sims?filter=silent24h',
      );
      expect(await overview.getByRole('link', { name: 'Alla sorterade efter förbrukning' }).getAttribute('href')).toBe(
        '/sims?sort=usage-desc',
      );
      await page.screenshot({ path: `test-results/home-overview-${tag(v)}.png`, fullPage: true });
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      // Today's figure leads to /usage of today.
      await overview.getByRole('link', { name: /Förbrukning i dag/ }).click();
      await page.waitForURL((u) => u.pathname === '/usage');
      expect(new URL(page.url()).searchParams.get('from')).toBe(today);
      await page.context().close();
    });
});
