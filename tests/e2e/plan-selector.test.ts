// Long: the readers of the accessibility tree and of axe without JS serve only this one rule.
// Rule 1 of the plan selector (spec, section 5) as a browser and a screen reader meet it, in a real Chromium with
// JavaScript on and off, on /add and on a SIM's page: while no data amount is chosen, "Aktivera tal & SMS" and
// "Aktivera roaming" are disabled in the accessibility tree (not only painted so), carry the spec's tooltip, and a
// click on them does nothing and shows why; choosing an amount makes them usable; without JS the server still names
// what to change; nothing moves either way; axe finds nothing. Decision 031.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { t } from '#domain/texts/common.ts';
import { Sim } from '#server/db/entities.ts';
import { axeViolations, DESKTOP, MOBILE } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946781');

const OPTIONS = [
  { id: 'plan-callAndSms', label: t.plans.callAndSms, tooltip: t.plans.callAndSmsNeedsAmount },
  { id: 'plan-roaming', label: t.plans.roaming, tooltip: t.plans.roamingNeedsAmount },
] as const;

/** React has taken over the form and its effects have run (the selector's rule 1 is then the form's state). */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const form = document.querySelector('main form');
    // The selector's effect has run and rendered: its stand-ins for the page without JS are gone.
    return (
      !!form &&
      Object.keys(form).some((k) => k.startsWith('__reactFiber')) &&
      !form.querySelector('fieldset.plan-selector .needs-amount-box')
    );
  });
}

async function open(path: string, js: boolean, width = DESKTOP.width): Promise<Page> {
  const page = await portal.loggedInPage('anna@demo.test', { js, width });
  await page.goto(path);
  if (js) await hydrated(page);
  return page;
}

/**
 * axe's findings for a page as it is without JS. axe runs in the page, so it cannot run where JS is off: the same
 * page is opened with JS on but the portal's scripts refused (as tests/e2e/a11y.test.ts does) and put in the same
 * state by `prepare`.
 */
async function axeWithoutJs(path: string, width: number, prepare?: (page: Page) => Promise<void>) {
  const page = await portal.loggedInPage('anna@demo.test', { js: true, width });
  await page.context().route('**/*.js', (route) => route.abort());
  await page.goto(path);
  await prepare?.(page);
  const found = await axeViolations(page);
  await page.context().close();
  return found;
}

/** axe's findings on the page as it is now (with JS), or on its twin without JS put in the same state. */
const axeOf = (page: Page, js: boolean, path: string, width: number, prepare?: (page: Page) => Promise<void>) =>
  js ? axeViolations(page) : axeWithoutJs(path, width, prepare);

type AxBox = { name: string; description: string; disabled: boolean; checked: string; focusable: boolean };

/** The plan's checkboxes as Chromium's accessibility tree has them (what a screen reader is given). */
async function axBoxes(page: Page): Promise<AxBox[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    type Value = { value?: string | boolean | number };
    type Node = {
      ignored: boolean;
      role?: Value;
      name?: Value;
      description?: Value;
      properties?: { name: string; value: Value }[];
    };
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Node[] };
    const prop = (n: Node, name: string) => n.properties?.find((p) => p.name === name)?.value.value;
    return nodes
      .filter((n) => !n.ignored && n.role?.value === 'checkbox')
      .map((n) => ({
        name: String(n.name?.value ?? ''),
        description: String(n.description?.value ?? ''),
        disabled: prop(n, 'disabled') === true,
        checked: String(prop(n, 'checked') ?? ''),
        focusable: prop(n, 'focusable') === true,
      }))
      .filter((b) => /tal & SMS|roaming/i.test(b.name));
  } finally {
    await cdp.detach();
  }
}

/** The box as the page's form has it: checked, and whether it would be posted (a disabled box is not). */
const formBox = (page: Page, id: string) =>
  page.locator(`#${id}`).evaluate((b: HTMLInputElement) => ({ checked: b.checked, disabled: b.disabled }));

/** Where each part of the selector and the form's button stand, and how tall, to prove nothing moved. */
const geometry = (page: Page) =>
  page.evaluate(() =>
    ['#plan-callAndSms-help', '#plan-roaming-help', 'label[for=plan-callAndSms]', 'label[for=plan-roaming]']
      .map((s) => document.querySelector(s))
      .concat([document.querySelector('main form button[type=submit]')])
      .map((e) => {
        const r = e!.getBoundingClientRect();
        // Not the width: a label of a disabled box is drawn lighter, so its words are narrower.
        return [Math.round(r.x + scrollX), Math.round(r.y + scrollY), Math.round(r.height)];
      }),
  );

/**
 * Rule 1 holds: each option a disabled, unticked checkbox for assistive technology, named or described by the
 * spec's tooltip and still bearing its label's words; out of the tab order; a click on the box and on its label
 * changes nothing; the reason stands under the label and is the tooltip where the pointer is on the box (with JS
 * on the label too: without JS no tooltip could be taken off it once an amount is chosen).
 */
async function expectRuleOne(page: Page, js: boolean) {
  const boxes = await axBoxes(page);
  expect(boxes.map((b) => b.disabled)).toEqual([true, true]);
  for (const [i, { id, label, tooltip }] of OPTIONS.entries()) {
    const box = boxes[i]!;
    expect(`${box.name} | ${box.description}`).toContain(tooltip);
    expect(box.name.toLowerCase()).toContain(label.toLowerCase());
    expect(box.focusable).toBe(false);
    expect(box.checked).toBe('false');
    // Shown under the label instead of the price note (in the same place).
    expect(await page.locator(`#${id}-needs-amount`).isVisible()).toBe(true);
    expect(await page.locator(`#${id}-help`).isVisible()).toBe(false);
    // A real click where the user sees the box, and on the label: nothing changes; the tooltip is there.
    const posted = await formBox(page, id);
    const targets = [page.locator(`.check:has(#${id}) input:visible`), page.locator(`label[for=${id}]`)];
    for (const [n, target] of targets.entries()) {
      await target.scrollIntoViewIfNeeded();
      const r = (await target.boundingBox())!;
      const x = r.x + Math.min(r.width / 2, 8);
      const y = r.y + r.height / 2;
      await page.mouse.click(x, y);
      const title = await page.evaluate(
        ([px, py]) => document.elementFromPoint(px!, py!)?.closest('[title]')?.getAttribute('title') ?? null,
        [x, y],
      );
      if (n === 0 || js) expect(title).toBe(tooltip);
    }
    expect(await formBox(page, id)).toEqual(posted);
  }
  // Tab from the amount goes past both boxes.
  await page.locator('#plan-dataLimit').focus();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.id ?? '')).not.toMatch(/^plan-(callAndSms|roaming)$/);
}

for (const js of [true, false]) {
  describe(`the plan selector's rule 1 with JS ${js ? 'on' : 'off'}`, () => {
    for (const width of [DESKTOP.width, MOBILE.width]) {
      it(`/add, no amount chosen: both boxes disabled with the spec's tooltips; an amount enables them (${width} px)`, async () => {
        const page = await open('/add', js, width);
        const before = await geometry(page);
        await expectRuleOne(page, js);
        expect(await axeOf(page, js, '/add', width)).toEqual([]);

        // 5 GB: tal & SMS is the user's choice, so it is a usable box named by its label, described by its price.
        await page.getByLabel('Datamängd').selectOption({ label: '5 GB' });
        const call = OPTIONS[0];
        await expect
          .poll(async () => (await axBoxes(page)).find((b) => b.name === call.label))
          .toMatchObject({ disabled: false, description: t.plans.callAndSmsHelp, focusable: true });
        expect(await page.locator(`#${call.id}-needs-amount`).isVisible()).toBe(false);
        expect(await page.locator(`#${call.id}-help`).isVisible()).toBe(true);
        await page.getByLabel(call.label).check();
        expect((await formBox(page, call.id)).checked).toBe(true);
        // Roaming: with JS the rules of the amount run (5 GB with tal & SMS has it both ways), without JS every
        // box is usable and the server checks; never the reason of rule 1 any more.
        await expect
          .poll(async () => (await axBoxes(page)).find((b) => b.name === t.plans.roaming))
          .toMatchObject({ disabled: false, description: t.plans.roamingHelp });
        // Nothing moved: the reason and the price note share one place.
        expect(await geometry(page)).toEqual(before);
        expect(
          await axeOf(page, js, '/add', width, async (twin) => {
            await twin.getByLabel('Datamängd').selectOption({ label: '5 GB' });
            await twin.getByLabel(call.label).check();
          }),
        ).toEqual([]);

        // Back to no amount: disabled again (with JS also unticked, as a disabled box is not posted).
        await page.getByLabel('Datamängd').selectOption({ value: '' });
        await expect.poll(async () => (await axBoxes(page)).map((b) => b.disabled)).toEqual([true, true]);
        expect(await geometry(page)).toEqual(before);
        if (js) expect(await formBox(page, call.id)).toEqual({ checked: false, disabled: true });
        await page.context().close();
      });
    }

    it("a SIM's page: the amount taken away disables both boxes, and the server names what to change", async () => {
      const caller = await import('#tests/helpers/caller.ts');
      const { id } = await (
        await caller.callerFor(portal.server.services, 'anna@demo.test')
      ).sim.activate({
        iccid: newIccid(),
        dataLimit: 5000,
        callAndSms: true,
        roaming: false,
        invoiceLineMark: 'Regel 1',
        invoiceLineNote: '',
      });
      const page = await open(`/sims/${id}`, js);
      // An amount is chosen: both usable, tal & SMS ticked, no reason of rule 1 anywhere.
      expect((await axBoxes(page)).map((b) => [b.name, b.disabled])).toEqual([
        [t.plans.callAndSms, false],
        [t.plans.roaming, false],
      ]);
      expect(await page.getByText(t.plans.callAndSmsNeedsAmount).isVisible()).toBe(false);
      await page.getByLabel('Datamängd').selectOption({ value: '' });
      await expectRuleOne(page, js);
      expect(
        await axeOf(page, js, `/sims/${id}`, DESKTOP.width, (twin) =>
          twin
            .getByLabel('Datamängd')
            .selectOption({ value: '' })
            .then(() => undefined),
        ),
      ).toEqual([]);

      // Saved as it stands: refused, the server names the amount to choose, nothing changed.
      await page.getByRole('button', { name: t.sims.save, exact: true }).click();
      await page.locator('#plan-dataLimit-error', { hasText: t.plans.chooseAmount }).waitFor();
      expect(await page.locator('#error-summary').getByRole('link').allInnerTexts()).toEqual([t.plans.chooseAmount]);
      const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, id, { populate: ['ratePlan'] });
      expect(sim.ratePlan.code).toBe('DATA-5000-TS');
      await page.context().close();
    });
  });
}

describe('without JS the server still decides', () => {
  it('names each option to change when the chosen amount has no such plan', async () => {
    const page = await open('/add', false);
    await page.getByLabel('ICCID', { exact: true }).fill(newIccid());
    await page.getByLabel('Datamängd').selectOption({ label: '500 MB' });
    await page.getByLabel(t.plans.callAndSms).check();
    await page.getByRole('button', { name: t.sims.activate, exact: true }).click();
    await page.locator('#plan-error', { hasText: t.plans.callAndSmsUnavailable('för 500 MB') }).waitFor();
    expect(await page.getByLabel(t.plans.callAndSms).getAttribute('aria-invalid')).toBe('true');
    await page.context().close();
  });

  it('asks for an amount when none was chosen, and rule 1 holds on the refused page', async () => {
    const page = await open('/add', false);
    await page.getByLabel('ICCID', { exact: true }).fill(newIccid());
    await page.getByRole('button', { name: t.sims.activate, exact: true }).click();
    await page.locator('#plan-dataLimit-error', { hasText: t.plans.chooseAmount }).waitFor();
    expect((await axBoxes(page)).map((b) => b.disabled)).toEqual([true, true]);
    await page.context().close();
  });
});

describe('screens of /add with no amount chosen', () => {
  for (const theme of ['dark', 'light'] as const)
    for (const width of [DESKTOP.width, MOBILE.width])
      it(`${width} px, ${theme} theme: the boxes drawn disabled with the reason under each (JS on and off alike)`, async () => {
        const shots: Buffer[] = [];
        for (const js of [false, true]) {
          const page = await portal.loggedInPage('anna@demo.test', { js, width });
          await page.context().addCookies([{ name: 'theme', value: theme, url: portal.server.url }]);
          await page.goto('/add');
          if (js) await hydrated(page);
          const path = `test-results/plan-selector-${width}-${theme}-${js ? 'js' : 'nojs'}.png`;
          await page.locator('fieldset.plan-selector').screenshot({ path, animations: 'disabled' });
          // The options (the select's edge may differ by a shade of anti-aliasing between two renders).
          for (const check of await page.locator('fieldset.plan-selector .check').all())
            shots.push(await check.screenshot({ animations: 'disabled' }));
          if (js) await page.screenshot({ path: `test-results/plan-selector-${width}-${theme}.png`, fullPage: true });
          await page.context().close();
        }
        // The stand-in without JS and the disabled box with JS are the same picture: nothing switches on hydration.
        expect(shots).toHaveLength(4);
        expect(shots[0]!.equals(shots[2]!)).toBe(true);
        expect(shots[1]!.equals(shots[3]!)).toBe(true);
      });
});
