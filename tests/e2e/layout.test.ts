// Layout at 390 px with the longest values the portal accepts: 200 characters without a space in every
// mark, name and address. No screen may scroll sideways; screenshots of each land in test-results/ to look at.
// And controls that cannot be changed look so: a legacy SIM's read-only marks, the plan selector's disabled boxes.
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim } from '#server/db/entities.ts';
import { MOBILE, newContext } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('46');
const long = (c: string, n = 200) => c.repeat(n);
// The longest address the e-mail check takes: a 64-character local part and labels of at most 63.
const EMAIL = `${long('e', 64)}@${long('d', 63)}.${long('f', 63)}.se`;
/** A long-named super admin, of the staff company (docs/decisions/014). */
const STAFF_EMAIL = `${long('s', 64)}@${long('d', 63)}.${long('g', 63)}.se`;
let ids: { company: number; user: number; sim: number };

async function call(method: string, path: string, cookie: string, json: unknown) {
  const res = await fetch(portal.server.url + path, {
    method,
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  const data = await res.json();
  expect(res.status, JSON.stringify(data)).toBe(200);
  return data;
}

beforeAll(async () => {
  // Everything through the REST doors, so the values are ones the portal itself accepts.
  const admin = await portal.server.sessionCookie('admin@demo.test');
  const { newCompany } = await call('POST', '/api/admin/createCompany', admin, {
    name: long('N'),
    customerNumber: long('7', 50),
    invoiceNote: long('M'),
  });
  const { newUser } = await call('POST', '/api/admin/createUser', admin, {
    name: long('U'),
    email: EMAIL,
    companyId: newCompany.id,
  });
  await call('PUT', '/api/admin/updateUser', admin, {
    id: newUser.id,
    companyId: newCompany.id,
    name: long('U'),
    email: EMAIL,
    isCompanyOwner: true,
    isSuperAdmin: false,
  });
  // A long-named super admin, who acting as the company reaches every screen (and the admin button on the home page).
  const staff = await portal.server.services.orm.em.fork().findOneOrFail(Company, { isStaff: true });
  const { newUser: staffer } = await call('POST', '/api/admin/createUser', admin, {
    name: long('S'),
    email: STAFF_EMAIL,
    companyId: staff.id,
  });
  await call('PUT', '/api/admin/updateUser', admin, {
    id: staffer.id,
    companyId: staff.id,
    name: long('S'),
    email: STAFF_EMAIL,
    isCompanyOwner: false,
    isSuperAdmin: true,
  });
  const cookie = await portal.server.sessionCookie(EMAIL);
  const sim = {
    dataLimit: 1000,
    callAndSms: true,
    roaming: false,
    invoiceLineMark: long('m'),
    invoiceLineNote: long('n'),
  };
  const { id } = await call('POST', '/api/sim', cookie, { iccid: newIccid(), ...sim });
  await call('PUT', '/api/sim/edit', cookie, { id, ...sim, invoiceLineMark: long('k') });
  for (let i = 0; i < 3; i++) await call('POST', '/api/sim', cookie, { iccid: newIccid(), ...sim });
  ids = { company: newCompany.id, user: newUser.id, sim: id };
});

/** Every screen of the company's owner; a super admin (acting) also the admin screens. */
const screens = (acting: boolean) => [
  '/',
  '/add',
  '/sims',
  `/sims/${ids.sim}`,
  '/export',
  '/feedback',
  '/company',
  `/company/users/${ids.user}`,
  ...(acting
    ? ['/admin', '/admin/companies', `/admin/companies/${ids.company}`, `/admin/companies/${ids.company}/${ids.user}`]
    : []),
];

/** A session of the long-named owner; `acting`: the long-named super admin acting as the long-named company. */
async function cookieFor(acting: boolean): Promise<string> {
  if (!acting) return portal.server.sessionCookie(EMAIL);
  return portal.server.sessionCookie(STAFF_EMAIL, { actingCompanyId: ids.company });
}

describe('at 390 px with 200-character unbroken values', () => {
  for (const js of [true, false]) {
    for (const acting of [false, true]) {
      it(`no screen scrolls sideways (JS ${js ? 'on' : 'off'}${acting ? ', acting as the company' : ''})`, async () => {
        const ctx = await newContext(portal.browser, {
          baseURL: portal.server.url,
          js,
          viewport: MOBILE,
          cookie: await cookieFor(acting),
        });
        const page = await ctx.newPage();
        const wide: string[] = [];
        for (const path of screens(acting)) {
          await page.goto(path);
          if (js) await page.waitForFunction(() => '__remixRouter' in window);
          expect(await page.locator('h1').count(), path).toBe(1); // the screen itself, not an error page
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > MOBILE.width) {
            // Name the innermost elements that reach past the edge, to know where to look.
            const culprits = await page.evaluate(
              (w) =>
                [...document.querySelectorAll('body *')]
                  .filter(
                    (e) =>
                      e.getBoundingClientRect().right > w + 1 &&
                      ![...e.children].some((c) => c.getBoundingClientRect().right > w + 1),
                  )
                  .slice(0, 3)
                  .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
              MOBILE.width,
            );
            wide.push(`${path}: ${width} px (${culprits.join(', ')})`);
          }
          // Nor may a part of it (a table in its scroll box) scroll sideways; a field scrolling its own text is fine.
          const scrollers = await page.evaluate(() =>
            [...document.querySelectorAll('body *')]
              .filter(
                (e) =>
                  !['INPUT', 'TEXTAREA', 'SELECT'].includes(e.tagName) &&
                  /auto|scroll/.test(getComputedStyle(e).overflowX) &&
                  e.scrollWidth > e.clientWidth + 1,
              )
              .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${e.scrollWidth} px in ${e.clientWidth} px`),
          );
          if (scrollers.length) wide.push(`${path}: ${scrollers.join(', ')}`);
          const name = path === '/' ? 'home' : path.slice(1).replace(/\d+/g, 'id').replace(/\//g, '-');
          if (js && acting) await page.screenshot({ path: `test-results/layout-390-${name}.png`, fullPage: true });
        }
        expect(wide).toEqual([]);
        await ctx.close();
      });
    }
  }
});

/** The text colour of an element, its contrast against the card behind it (WCAG formula) and a few looks. */
async function looks(locator: Locator) {
  return locator.evaluate((el) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: string) => {
      const [r, g, b] = rgb(c).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const style = getComputedStyle(el);
    const card = getComputedStyle(el.closest('.card')!).backgroundColor;
    const [a, b] = [lum(style.color), lum(card)].sort((x, y) => y - x);
    return {
      color: style.color,
      contrast: (a! + 0.05) / (b! + 0.05),
      opacity: Number(style.opacity),
      cursor: style.cursor,
      borderStyle: style.borderTopStyle,
      background: style.backgroundColor,
      resize: style.resize,
    };
  });
}

describe('controls that cannot be changed look so, at AA contrast', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`a legacy SIM's marks are read-only and look it, unlike an editable SIM's (${theme} theme)`, async () => {
      const em = portal.server.services.orm.em.fork();
      const legacy = await em.findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: true } });
      const editable = await em.findOneOrFail(Sim, {
        status: 'active',
        ratePlan: { isLegacy: false },
        company: legacy.company,
      });
      const ctx = await newContext(portal.browser, {
        baseURL: portal.server.url,
        cookie: await portal.server.sessionCookie('anna@demo.test'),
      });
      await ctx.addCookies([{ name: 'theme', value: theme, url: portal.server.url }]);
      const page = await ctx.newPage();
      await page.goto(`/sims/${editable.id}`);
      const open = await looks(page.getByLabel('Fakturamärkning'));
      await page.goto(`/sims/${legacy.id}`);
      expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
      for (const label of ['Fakturamärkning', 'Fakturakommentar']) {
        const field = page.getByLabel(label);
        expect(await field.getAttribute('readonly')).not.toBeNull();
        const fixed = await looks(field);
        expect(fixed.borderStyle, label).toBe('dashed');
        expect(fixed.background, label).not.toBe(open.background);
        expect(fixed.resize, label).toBe('none');
        expect(fixed.contrast, label).toBeGreaterThanOrEqual(4.5);
      }
      expect(open.borderStyle).toBe('solid');
      await page.locator('form.card').screenshot({ path: `test-results/legacy-sim-${theme}.png` });
      await ctx.close();
    });

    it(`the plan selector's boxes, disabled until a data amount is chosen, look disabled (${theme} theme)`, async () => {
      const ctx = await newContext(portal.browser, {
        baseURL: portal.server.url,
        cookie: await portal.server.sessionCookie('anna@demo.test'),
      });
      await ctx.addCookies([{ name: 'theme', value: theme, url: portal.server.url }]);
      const page = await ctx.newPage();
      await page.goto('/add');
      const box = page.getByLabel('Aktivera tal & SMS');
      // Disabled in look by CSS alone until an amount is chosen (forms.css), the same before and after hydration.
      await page.waitForFunction(() => '__remixRouter' in window);
      const label = page.locator('label', { hasText: 'Aktivera tal & SMS' });
      const off = { box: await looks(box), label: await looks(label) };
      await page.locator('.plan-selector').screenshot({ path: `test-results/plan-disabled-${theme}.png` });
      await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
      await expect.poll(() => box.isEnabled()).toBe(true);
      const on = { box: await looks(box), label: await looks(label) };
      expect(off.box.opacity).toBeLessThan(on.box.opacity);
      expect(off.box.cursor).toBe('not-allowed');
      expect(off.label.color).not.toBe(on.label.color);
      expect(off.label.contrast).toBeGreaterThanOrEqual(4.5);
      await ctx.close();
    });
  }
});
