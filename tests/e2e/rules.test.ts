// Long: one walk through the page (make, refuse, turn off, change, what it did, delete) in four ways, and the step-up.
// /company/rules ("Regler", issue 40) in a real Chromium, JS on and off, desktop and 390 px, dark theme: an owner
// makes a rule (bad input first: refused next to each field, values kept), turns it off, changes it on its own page,
// sees what the rules did (a firing written as the evaluation will) with a link to the SIM, and deletes it on a
// confirm page; axe finds nothing with JS. Without a recent step-up the new rule is refused and comes back typed.
import { describe, expect, it } from 'vitest';
import { RatePlan, Rule, Sim, User } from '#server/db/entities.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { companyWithOwner, ready, screenVariants as variants } from '#tests/helpers/company.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946321');

async function pageFor(email: string, o: { js: boolean; width?: number; steppedUp?: boolean }) {
  const cookie = await portal.server.sessionCookie(email, { steppedUp: o.steppedUp ?? true });
  const context = await newContext(portal.browser, {
    baseURL: portal.server.url,
    js: o.js,
    cookie,
    viewport: o.width === MOBILE.width ? MOBILE : DESKTOP,
    theme: 'dark',
  });
  return context.newPage();
}

describe.each(variants)('/company/rules ($tag)', ({ js, width, tag }) => {
  it('makes a rule (refused first, values kept), turns it off, changes it, shows what it did, deletes it', async () => {
    const { ownerEmail, companyId } = await companyWithOwner(portal.server, 'Regel', tag);
    const e = em();
    const colleague = e.create(User, {
      name: `Kollega ${tag}`,
      email: `kollega.${tag.toLowerCase()}@regel.se`,
      company: companyId,
      role: 'member',
    });
    await e.flush();
    const page = await pageFor(ownerEmail, { js, width });
    const shot = (name: string) =>
      page.screenshot({ path: `test-results/rules-${name}-${width === 390 ? '390' : 'desktop'}.png`, fullPage: true });
    const noSideways = async () => {
      if (width === 390)
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    };

    await page.goto('/company');
    await ready(page, js);
    await page.getByRole('link', { name: 'Regler' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/company/rules');
    await ready(page, js);
    // With JS the address changes before the new page's title is set: wait for the title too.
    await expect.poll(() => page.title()).toMatch(/^Regler/);
    await expect.poll(() => page.getByText('Företaget har inga regler ännu.').isVisible()).toBe(true);
    expect(await page.textContent('.rules-timing')).toContain('högst ett 15-minutersintervall sent');
    expect(await page.getByText('Reglerna har inte agerat ännu.').isVisible()).toBe(true);
    await shot('empty');
    if (js) expect(await axeViolations(page)).toEqual([]);

    // Bad input: no name, an amount that is no number, no action, e-mail with no one to send it to.
    await page.check('#rule-condition-month_bytes');
    await page.fill('#rule-monthAmount', 'mycket');
    await page.uncheck('#rule-notifyToast');
    await page.getByRole('button', { name: 'Lägg till regel' }).click();
    await expect.poll(() => page.locator('#rule-name-error').textContent()).toBe('Ange ett namn på regeln.');
    expect(await page.locator('#rule-monthAmount-error').textContent()).toBe('Ange ett tal.');
    expect(await page.locator('#rule-actions-error').textContent()).toBe('Välj minst en åtgärd.');
    expect(await page.locator('#rule-monthAmount').inputValue()).toBe('mycket');
    expect(await page.locator('#rule-monthAmount').getAttribute('aria-invalid')).toBe('true');
    expect(await page.isChecked('#rule-condition-month_bytes')).toBe(true);
    expect(await page.locator('.error-summary').textContent()).toMatch(/Ange ett tal/);
    await noSideways();
    await shot('refused');
    if (js) expect(await axeViolations(page)).toEqual([]);

    // Then a share beyond the bounds and e-mail with nobody ticked: the procedure's own words.
    await page.fill('#rule-name', 'Över 80 %');
    await page.check('#rule-condition-month_share');
    await page.fill('#rule-share', '2000');
    await page.check('#rule-target-tag');
    await page.fill('#rule-tag', '  Kyl   bilar ');
    await page.check('#rule-notifyEmail');
    await page.getByRole('button', { name: 'Lägg till regel' }).click();
    await expect
      .poll(() => page.locator('#rule-share-error').textContent())
      .toMatch(/^Ange en andel mellan 1 och 1\s000 %\.$/);
    expect(await page.locator('#rule-recipients-error').textContent()).toBe('Välj minst en mottagare av e-posten.');
    expect(await page.locator('#rule-name').inputValue()).toBe('Över 80 %');
    expect(await page.locator('#rule-tag').inputValue()).toBe('  Kyl   bilar ');
    expect(await page.isChecked('#rule-target-tag')).toBe(true);
    expect(await page.isChecked('#rule-notifyEmail')).toBe(true);

    // Made.
    await page.fill('#rule-share', '80');
    await page.check(`#rule-recipient-${colleague.id}`);
    await page.check('#rule-pause');
    await page.getByRole('button', { name: 'Lägg till regel' }).click();
    await expect.poll(() => page.getByText('Regeln är tillagd').isVisible()).toBe(true);
    const card = page.locator('.rules-rule', { hasText: 'Över 80 %' });
    expect(await card.locator('.rules-summary').textContent()).toBe(
      'När förbrukningen i månaden passerar 80 % av planens datamängd',
    );
    expect(await card.textContent()).toContain('Med taggen Kyl bilar');
    expect(await card.textContent()).toContain(`E-post till Kollega ${tag}, Pausar SIM-kortet`);
    expect(await card.locator('.rules-on').textContent()).toBe('På');
    expect(await card.locator('.rules-on').getAttribute('data-tone')).toBe('ok');
    const rule = await em().findOneOrFail(Rule, { company: companyId, name: 'Över 80 %' });
    expect(rule).toMatchObject({ targetTag: 'Kyl bilar', condition: 'month_share', threshold: 80, pause: true });

    // Off.
    await card.getByRole('button', { name: 'Stäng av regeln Över 80 %' }).click();
    await expect.poll(() => card.locator('.rules-off').textContent()).toBe('Avstängd');

    // Changed on its own page: silent for 2 days, on a plan.
    const plan = await em().findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
    await card.getByRole('link', { name: 'Ändra regeln Över 80 %' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Ändra regel' }).isVisible()).toBe(true);
    await ready(page, js);
    expect(await page.locator('#rule-name').inputValue()).toBe('Över 80 %');
    expect(await page.locator('#rule-share').inputValue()).toBe('80');
    expect(await page.isChecked(`#rule-recipient-${colleague.id}`)).toBe(true);
    expect(await page.isChecked('#rule-enabled')).toBe(false);
    await page.fill('#rule-name', 'Tyst två dygn');
    await page.check('#rule-condition-silent');
    await page.fill('#rule-silentAmount', '0,5');
    await page.check('#rule-target-plan');
    await page.selectOption('#rule-planId', String(plan.id));
    await page.getByRole('button', { name: 'Spara regeln' }).click();
    await expect
      .poll(() => page.locator('#rule-silentAmount-error').textContent())
      .toBe('Ange minst 1 timme och högst 90 dagar.');
    expect(await page.locator('#rule-silentAmount').inputValue()).toBe('0,5');
    await shot('edit-refused');
    if (js) expect(await axeViolations(page)).toEqual([]);
    await page.fill('#rule-silentAmount', '2');
    await page.selectOption('#rule-silentUnit', 'days');
    await page.check('#rule-enabled');
    await page.getByRole('button', { name: 'Spara regeln' }).click();
    await expect.poll(() => page.getByText('Regeln är sparad').isVisible()).toBe(true);
    const changed = page.locator('.rules-rule', { hasText: 'Tyst två dygn' });
    expect(await changed.locator('.rules-summary').textContent()).toBe(
      'När ett SIM-kort inte har haft trafik på 2 dagar',
    );
    expect(await changed.textContent()).toContain(`På planen ${plan.code}`);
    expect(await changed.locator('.rules-on').textContent()).toBe('På');

    // What it did: a firing as the evaluation writes it, the SIM linked.
    const sim = e.create(Sim, { iccid: newIccid(), company: companyId, ratePlan: plan });
    await e.flush();
    await em().execute(
      `insert into rule_firing (company_id, rule_id, sim_id, period, value, paused, webhook)
       values (?, ?, ?, 'silent:2026-11-27T08:00:00.000Z', 2940, true, true)`,
      [companyId, rule.id, sim.id],
    );
    await page.goto('/company/rules');
    await ready(page, js);
    const row = page.locator('.rules-firings tbody tr').first();
    expect(await row.textContent()).toContain('Tyst i 2 dagar');
    expect(await row.textContent()).toContain('Webhook');
    expect(await row.getByRole('link', { name: sim.iccid }).getAttribute('href')).toBe(`/sims/${sim.id}`);
    await noSideways();
    await shot('list');
    if (js) expect(await axeViolations(page)).toEqual([]);

    // Deleted on a confirm page.
    await changed.getByRole('link', { name: 'Ta bort regeln Tyst två dygn' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Ta bort regel' }).isVisible()).toBe(true);
    await ready(page, js);
    expect(await page.textContent('main')).toContain('Regeln ”Tyst två dygn” tas bort');
    await shot('delete');
    await page.getByRole('button', { name: 'Ta bort' }).click();
    await expect.poll(() => page.getByText('Regeln är borttagen').isVisible()).toBe(true);
    expect(await page.getByText('Företaget har inga regler ännu.').isVisible()).toBe(true);
    expect(await em().count(Rule, { company: companyId })).toBe(0);
    await page.context().close();
  });
});

describe('/company/rules without a recent step-up', () => {
  it.each([true, false])('refuses a new rule and keeps what was typed (JS %s)', async (js) => {
    const { ownerEmail, companyId } = await companyWithOwner(portal.server, 'Stegregel', js ? 'js' : 'nojs');
    const page = await pageFor(ownerEmail, { js, steppedUp: false });
    await page.goto('/company/rules');
    await ready(page, js);
    await page.fill('#rule-name', 'Stor dag');
    await page.check('#rule-condition-day_bytes');
    await page.fill('#rule-dayAmount', '500');
    await page.check('#rule-notifyWebhook');
    await page.getByRole('button', { name: 'Lägg till regel' }).click();
    await expect.poll(() => page.locator('.step-up-refused').isVisible()).toBe(true);
    await ready(page, js);
    expect(await page.locator('#rule-name').inputValue()).toBe('Stor dag');
    expect(await page.isChecked('#rule-condition-day_bytes')).toBe(true);
    expect(await page.locator('#rule-dayAmount').inputValue()).toBe('500');
    expect(await page.isChecked('#rule-notifyWebhook')).toBe(true);
    expect(await em().count(Rule, { company: companyId })).toBe(0);
    await page.context().close();
  });

  it('is not for a member', async () => {
    const page = await pageFor('anna@demo.test', { js: false });
    const res = await page.goto('/company/rules');
    expect(res?.status()).toBe(403);
    await page.context().close();
  });
});
