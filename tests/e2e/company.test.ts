// /company ("Mitt företag") in a real Chromium, JS on and off, desktop and 390 px: an owner adds,
// searches, edits and removes users, is refused demoting the last owner (next to the role), and reads and
// exports the activity; a viewer sees nothing that changes SIMs.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '#server/db/entities.ts';
import { companyWithOwner, look, ready } from '#tests/helpers/company.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946466');

async function errorOf(page: Page, id: string) {
  const field = page.locator(`#${id}`);
  const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
  const errorId = describedBy.split(' ').find((d) => d.endsWith('-error'));
  return {
    invalid: await field.getAttribute('aria-invalid'),
    error: errorId ? await page.locator(`#${errorId}`).textContent() : null,
  };
}

/** A company of its own with one owner, so each run's last-owner rule is its own. */
const team = (tag: string) => companyWithOwner(portal.server, 'Lag', tag);

const variants = [
  { js: true, width: undefined, tag: 'JSdesk' },
  { js: false, width: 390, tag: 'noJS390' },
  { js: true, width: 390, tag: 'JS390' },
] as const;

describe('the owner’s /company', () => {
  for (const v of variants) {
    it(`adds, searches, edits and removes a user, refuses demoting the last owner, shows and exports the activity (${v.tag})`, async () => {
      const t = await team(v.tag);
      const page = await portal.loggedInPage(t.ownerEmail, { js: v.js, width: v.width });
      await page.goto('/');
      await ready(page, v.js);
      // The home page's own button (the header has a link of the same name).
      await page.getByRole('navigation', { name: 'Start' }).getByRole('link', { name: 'Mitt företag' }).click();
      await page.waitForURL((u) => u.pathname === '/company');
      await ready(page, v.js);
      await page.getByRole('heading', { name: 'Mitt företag', level: 1 }).waitFor();

      // Bad input: the reason next to the field, the values kept.
      await page.getByLabel('Namn', { exact: true }).fill(`Kalle ${v.tag}`);
      await page.getByLabel('E-postadress').fill('inte-en-adress');
      await page.getByLabel('Roll').selectOption('viewer');
      // Without JS the browser's own check would stop the post before the server sees it: let it through.
      await page.locator('form:has(#company-user-email)').evaluate((f) => f.setAttribute('novalidate', ''));
      await page.getByRole('button', { name: 'Lägg till' }).click();
      await page.getByRole('alert').filter({ hasText: 'Något gick fel' }).waitFor();
      await ready(page, v.js);
      expect(await errorOf(page, 'company-user-email')).toEqual({
        invalid: 'true',
        error: 'Ange en giltig e-postadress.',
      });
      expect(await page.getByLabel('Namn', { exact: true }).inputValue()).toBe(`Kalle ${v.tag}`);
      expect(await page.getByLabel('Roll').inputValue()).toBe('viewer');

      const kalle = `kalle.${v.tag.toLowerCase()}@lag.se`;
      await page.getByLabel('E-postadress').fill(kalle.toUpperCase());
      await page.getByRole('button', { name: 'Lägg till' }).click();
      await page.getByRole('status').filter({ hasText: 'Användaren är tillagd.' }).waitFor();
      await ready(page, v.js);
      const row = page.getByRole('row').filter({ hasText: `Kalle ${v.tag}` });
      await row.waitFor();
      expect(await row.textContent()).toContain('Läsbehörig');
      // The form is empty again for the next one.
      expect(await page.getByLabel('Namn', { exact: true }).inputValue()).toBe('');

      // Search.
      await page.getByLabel('Sök användare').fill('kalle');
      await page.getByRole('button', { name: 'Sök' }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === 'kalle');
      await expect.poll(() => page.getByRole('row').count(), { timeout: 15_000 }).toBe(2); // header + Kalle
      await look(page, 'company', v);

      // The last owner cannot demote themself: the refusal next to the role, the values kept.
      await page.goto(`/company/users/${t.ownerId}`);
      await ready(page, v.js);
      await page.getByLabel('Namn', { exact: true }).fill(`Ägare ${v.tag} Ny`);
      await page.getByLabel('Roll').selectOption('member');
      await page.getByRole('button', { name: 'Spara' }).click();
      await page.locator('#company-user-role-error').waitFor();
      await ready(page, v.js);
      expect(await errorOf(page, 'company-user-role')).toEqual({
        invalid: 'true',
        error: 'Företaget måste ha minst en ägare. Gör någon annan till ägare först.',
      });
      expect(await page.getByLabel('Namn', { exact: true }).inputValue()).toBe(`Ägare ${v.tag} Ny`);
      expect(await page.getByLabel('Roll').inputValue()).toBe('member');
      expect((await em().findOneOrFail(User, { id: t.ownerId })).role).toBe('owner');
      await look(page, 'company-user', v);

      // Edit Kalle: a member now, renamed. "< Backa" from a user leads to the list.
      const kalleId = (await em().findOneOrFail(User, { email: kalle })).id;
      await page.getByRole('link', { name: '< Backa' }).click();
      await page.waitForURL((u) => u.pathname === '/company');
      await ready(page, v.js);
      await page.getByRole('link', { name: `Redigera Kalle ${v.tag}` }).click();
      await page.waitForURL((u) => u.pathname === `/company/users/${kalleId}`);
      await ready(page, v.js);
      await page.getByLabel('Namn', { exact: true }).fill(`Karl ${v.tag}`);
      await page.getByLabel('Roll').selectOption('member');
      await page.getByRole('button', { name: 'Spara' }).click();
      await page.getByRole('status').filter({ hasText: 'Användaren är sparad.' }).waitFor();
      await ready(page, v.js);
      expect(await em().findOneOrFail(User, { id: kalleId })).toMatchObject({ name: `Karl ${v.tag}`, role: 'member' });

      // Remove Karl, through the confirm page.
      await page.getByRole('link', { name: 'Ta bort' }).click();
      await page.waitForURL((u) => u.pathname === `/company/users/${kalleId}/remove`);
      await ready(page, v.js);
      await page.getByText(`Vill du ta bort Karl ${v.tag} (${kalle})?`).waitFor();
      await look(page, 'company-remove', v);
      await page.getByRole('button', { name: 'Ja, ta bort' }).click();
      await page.getByRole('status').filter({ hasText: 'Användaren är borttagen.' }).waitFor();
      await ready(page, v.js);
      expect(
        await page
          .getByRole('row')
          .filter({ hasText: `Karl ${v.tag}` })
          .count(),
      ).toBe(0);
      expect((await em().findOneOrFail(User, { id: kalleId })).removedAt).not.toBeNull();

      // The activity: newest first, filtered by kind, exported.
      await page.getByRole('link', { name: 'Aktivitet' }).click();
      await page.waitForURL((u) => u.pathname === '/company/activity');
      await ready(page, v.js);
      const rows = page.locator('table.company-activity tbody tr');
      await rows.first().waitFor();
      expect(await rows.first().textContent()).toContain(`Tog bort Karl ${v.tag} (${kalle})`);
      expect(await rows.nth(1).textContent()).toContain(
        `Ändrade Karl ${v.tag} (${kalle}): roll Läsbehörig → Medarbetare`,
      );
      // A SIM activated by the owner shows up, and the filter hides it again.
      const sim = await em().findOneOrFail(
        Sim,
        { status: 'active', ratePlan: { isLegacy: false } },
        { populate: ['ratePlan'] },
      );
      const iccid = newIccid();
      const activated = await page.request.post('/api/sim', {
        data: {
          iccid: iccid,
          dataLimit: sim.ratePlan.dataLimit,
          callAndSms: sim.ratePlan.call && sim.ratePlan.sms,
          roaming: sim.ratePlan.roaming,
          invoiceLineMark: '',
          invoiceLineNote: '',
        },
      });
      expect(activated.status()).toBe(200);
      await page.reload();
      await ready(page, v.js);
      expect(await rows.first().textContent()).toContain(`Aktiverade ${iccid}`);
      await page.getByLabel('Typ').selectOption('user');
      await page.getByRole('button', { name: 'Visa' }).click();
      await page.waitForURL((u) => u.searchParams.get('kind') === 'user');
      await ready(page, v.js);
      await expect
        .poll(async () => (await rows.allTextContents()).some((r) => r.includes('Aktiverade')), { timeout: 15_000 })
        .toBe(false);
      expect(await rows.count()).toBe(3); // added, edited, removed
      await look(page, 'company-activity', v);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Exportera som CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^Aktivitet_\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8');
      expect(csv.split('\r\n').filter(Boolean)).toHaveLength(4); // the header and the three user changes
      expect(csv).toContain(`Tog bort Karl ${v.tag} (${kalle})`);
      expect(csv).not.toContain('Aktiverade');
      await page.context().close();
    });
  }
});

describe('a viewer', () => {
  let simId: number;
  beforeAll(async () => {
    const e = em();
    const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
    e.create(User, { name: 'Vera Visare', email: 'vera@demo.test', company: demo, role: 'viewer' });
    await e.flush();
    simId = (await e.findOneOrFail(Sim, { company: demo, status: 'active', ratePlan: { isLegacy: false } })).id;
  });

  for (const v of variants.slice(0, 2)) {
    it(`sees no way to activate, edit or deactivate, and is refused /add and /company (${v.tag})`, async () => {
      const page = await portal.loggedInPage('vera@demo.test', { js: v.js, width: v.width });
      await page.goto('/');
      await ready(page, v.js);
      await page.getByRole('link', { name: 'Visa SIM-kort' }).waitFor();
      for (const name of ['Aktivera SIM-kort', 'Aktivera flera SIM-kort', 'Mitt företag'])
        expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(0);
      await page.getByRole('link', { name: 'Visa SIM-kort' }).click();
      await page.waitForURL((u) => u.pathname === '/sims');
      await ready(page, v.js);
      await page
        .getByRole('link', { name: /^Visa \d{19,20}$/ })
        .first()
        .waitFor();
      expect(await page.getByRole('checkbox').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Avaktivera markerade' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Redigera', exact: true }).count()).toBe(0);
      await page.goto(`/sims/${simId}`);
      await ready(page, v.js);
      await page.getByText('Din roll är Läsbehörig').waitFor();
      expect(await page.getByRole('button', { name: 'Spara' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Avaktivera' }).count()).toBe(0);
      expect(await page.getByLabel('Fakturamärkning').getAttribute('readonly')).not.toBeNull();
      for (const path of ['/add', '/add/bulk', `/sims/${simId}/deactivate`, '/company', '/company/activity']) {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(403);
      }
      await page.context().close();
    });
  }
});
