// Touch targets on a phone (390x844, JS on), each main page as its users see it. The rule, WCAG 2.2 2.5.8
// (Target Size, Minimum) with its 24 px raised to the 44 px of 2.5.5 and of our design tokens (--target):
// - a target is every visible, enabled a[href], button, input (not hidden), select, textarea, summary and label
//   wrapping a control; a control inside such a label, and a visually hidden input (1 px, its label is the
//   target), count as that label. A checkbox's or radio's target is its box joined with its visible labels.
// - each target is at least 44x44 px, or (the spacing exception) a 44 px circle centred on its box intersects
//   no other target and no other undersized target's circle.
// - exempt, as in WCAG: a link inline in running text (displayed inline in a block that holds text of its own),
//   and what lies off screen (the skip link until it is focused).
// Pages whose failing targets belong to parts still being reworked are listed in KNOWN: the test fails when a
// target fails that is not listed, and when a listed one passes (so the list only shrinks).
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '#server/db/entities.ts';
import { MOBILE, newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const TARGET = 44;

type Who = 'anon' | 'user' | 'owner' | 'admin' | 'acting';
const emailOf = { user: 'anna@demo.test', owner: 'ella@demo.test', admin: 'admin@demo.test' };
let actingCompanyId: number;
let pages: Array<{ path: string; as: Who; then?: (page: Page) => Promise<void> }>;

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const sim = await em.findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: false } });
  const company = await em.findOneOrFail(Company, { customerNumber: '100001' });
  const anna = await em.findOneOrFail(User, { email: 'anna@demo.test' });
  pages = [
    { path: '/login', as: 'anon' },
    { path: '/', as: 'user' },
    // The header's menu opened: its sections are targets too.
    { path: '/', as: 'owner', then: (page) => page.locator('summary', { hasText: 'Meny' }).first().click() },
    { path: '/add', as: 'user' },
    { path: '/add/bulk', as: 'user' },
    // The preview of a pasted list, with its counts, filter and rows.
    {
      path: '/add/bulk',
      as: 'user',
      then: async (page) => {
        await page.getByLabel('ICCID-nummer').fill(`${sim.iccid}\n1234`);
        await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
        await page.getByRole('button', { name: 'Förhandsgranska' }).click();
        await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
      },
    },
    // The user's menu opened.
    { path: '/export', as: 'user', then: (page) => page.locator('.usermenu summary').click() },
    { path: '/sims', as: 'user' },
    { path: `/sims/${sim.id}`, as: 'user' },
    { path: '/export', as: 'user' },
    { path: '/feedback', as: 'user' },
    { path: '/security', as: 'user' },
    { path: '/company', as: 'owner' },
    { path: `/company/users/${anna.id}`, as: 'owner' },
    { path: '/company/api-keys', as: 'owner' },
    { path: '/company/webhooks', as: 'owner' },
    { path: '/company/rules', as: 'owner' },
    { path: '/sims/tags', as: 'user' },
    { path: '/company/activity', as: 'owner' },
    { path: '/admin', as: 'admin' },
    { path: '/admin/companies', as: 'admin' },
    { path: `/admin/companies/${company.id}`, as: 'admin' },
    { path: `/admin/companies/${company.id}/${anna.id}`, as: 'admin' },
    { path: '/admin/audit', as: 'admin' },
    // A super admin acting as the company: the header's acting line and its way back.
    { path: '/sims', as: 'acting' },
  ];
  actingCompanyId = company.id;
});

/**
 * Failing targets owned by pages being reworked elsewhere, as "<path>: <target>" (the path's ids as :id).
 * Each is to be fixed there, and then taken out here.
 */
const KNOWN: string[] = [];

export type Failure = { target: string; width: number; height: number; near: string | null };

/** The targets of the page as it is now that fail the rule above, described by tag, text and class. */
async function failingTargets(page: Page): Promise<Failure[]> {
  return page.evaluate((size) => {
    const describe = (el: Element) => {
      const text = ((el as HTMLElement).innerText || el.getAttribute('aria-label') || el.getAttribute('name') || '')
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 40);
      const type = el.getAttribute('type');
      const cls = [...el.classList].slice(0, 2).join('.');
      return `${el.tagName.toLowerCase()}${type ? `[type=${type}]` : ''}${cls ? `.${cls}` : ''}${text ? ` "${text}"` : ''}`;
    };
    const visible = (el: Element) => {
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
      const r = el.getBoundingClientRect();
      return r.width * r.height > 4 && r.right > 0 && r.left < document.documentElement.clientWidth;
    };
    const isBlock = (el: Element) => !getComputedStyle(el).display.startsWith('inline');
    // A link in a sentence: shown inline, and its block holds text beside it (not only other links).
    const inRunningText = (el: Element) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      let block = el.parentElement;
      while (block && !isBlock(block)) block = block.parentElement;
      if (!block) return false;
      const clone = block.cloneNode(true) as HTMLElement;
      clone.querySelectorAll('a, button').forEach((a) => a.remove());
      return (clone.textContent ?? '').replace(/[\s:·,–-]/g, '').length > 0;
    };
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, summary, label:has(input, select, textarea)';
    const all = [...document.querySelectorAll(selector)].filter(
      (el) => visible(el) && !(el as HTMLButtonElement).disabled && !el.closest('[inert], [aria-hidden=true]'),
    );
    // A control inside a target label is that label.
    const own = all.filter(
      (el) => !(el.tagName !== 'LABEL' && el.closest('label') && all.includes(el.closest('label')!)),
    );
    const targets = own
      .filter((el) => !inRunningText(el))
      .map((el) => {
        let r = el.getBoundingClientRect();
        let box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
        const input = el as HTMLInputElement;
        if (el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio'))
          for (const label of input.labels ?? []) {
            if (!visible(label)) continue;
            r = label.getBoundingClientRect();
            box = {
              left: Math.min(box.left, r.left),
              top: Math.min(box.top, r.top),
              right: Math.max(box.right, r.right),
              bottom: Math.max(box.bottom, r.bottom),
            };
          }
        const width = box.right - box.left;
        const height = box.bottom - box.top;
        return {
          el,
          box,
          width,
          height,
          cx: box.left + width / 2,
          cy: box.top + height / 2,
          small: width < size - 0.5 || height < size - 0.5,
        };
      });
    const radius = size / 2;
    const failures: Array<{ target: string; width: number; height: number; near: string | null }> = [];
    for (const t of targets.filter((x) => x.small)) {
      const near = targets.find((o) => {
        if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) return false;
        const dx = Math.max(o.box.left - t.cx, 0, t.cx - o.box.right);
        const dy = Math.max(o.box.top - t.cy, 0, t.cy - o.box.bottom);
        if (Math.hypot(dx, dy) < radius) return true;
        return o.small && Math.hypot(o.cx - t.cx, o.cy - t.cy) < size;
      });
      if (near)
        failures.push({
          target: describe(t.el),
          width: Math.round(t.width),
          height: Math.round(t.height),
          near: describe(near.el),
        });
    }
    return failures;
  }, TARGET);
}

describe(`touch targets at ${MOBILE.width} px`, () => {
  it(
    'every target on every main page is 44 px or has 44 px of room (WCAG 2.5.8 at 44 px)',
    { timeout: 240_000 },
    async () => {
      const found: string[] = [];
      for (const as of ['anon', 'user', 'owner', 'admin', 'acting'] as const) {
        const cookie =
          as === 'anon'
            ? undefined
            : as === 'acting'
              ? await portal.server.sessionCookie(emailOf.admin, { actingCompanyId })
              : await portal.server.sessionCookie(emailOf[as]);
        const ctx = await newContext(portal.browser, { baseURL: portal.server.url, viewport: MOBILE, cookie });
        const page = await ctx.newPage();
        for (const p of pages.filter((x) => x.as === as)) {
          await page.goto(p.path);
          await page.waitForFunction(() => '__remixRouter' in window);
          await p.then?.(page);
          const path = p.path.replace(/\/\d+/g, '/:id') + (p.then ? ' (after its action)' : '');
          for (const f of await failingTargets(page))
            found.push(`${path}: ${f.target} ${f.width}x${f.height}${f.near ? ` near ${f.near}` : ''}`);
        }
        await ctx.close();
      }
      const key = (line: string) => line.replace(/ \d+x\d+( near .*)?$/, '');
      const unexpected = found.filter((f) => !KNOWN.includes(key(f)));
      const mended = KNOWN.filter((k) => !found.some((f) => key(f) === k));
      expect({ unexpected, mended }).toEqual({ unexpected: [], mended: [] });
    },
  );
});

describe('the rule itself, on a page made for it', () => {
  it('fails small targets close together, passes 44 px ones, spaced ones, labelled checkboxes and links in a sentence', async () => {
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, viewport: MOBILE });
    const page = await ctx.newPage();
    await page.setContent(`
      <style>body { margin: 0; font: 16px/1.5 sans-serif } .big { display: block; height: 44px; width: 120px }</style>
      <div style="display: flex; gap: 4px"><a href="#a">Liten</a><a href="#b">Granne</a></div>
      <button class="big">Stor</button>
      <div style="margin-top: 60px"><a href="#c" style="display: inline-block">Ensam</a></div>
      <p style="margin-top: 60px">Läs <a href="#d">villkoren</a> innan du fortsätter, och <a href="#e">mer</a>.</p>
      <label style="display: flex; min-height: 44px; margin-top: 60px"><input type="checkbox"> Kryssa i</label>
      <div style="margin-top: 60px"><input type="checkbox" id="x"><label for="x" style="display: inline-block; padding: 12px 0">Egen etikett</label></div>
      <a href="#skip" style="position: absolute; left: -999px">Hoppa</a>`);
    const failures = await failingTargets(page);
    expect(failures.map((f) => f.target).sort()).toEqual(['a "Granne"', 'a "Liten"']);
    expect(failures.find((f) => f.target === 'a "Liten"')?.near).toBe('a "Granne"');
    await ctx.close();
  });
});
