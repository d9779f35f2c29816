// Long: the admin screens share one Chromium, its logins and the page helpers, JS on and off.
// The admin screens in a real Chromium, with JavaScript on and off: companies (create, search, page, edit),
// users (add, edit), log in as a company; plus the 403/404 pages and the mobile layout.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AuditEvent, Company, User } from '#server/db/entities.ts';
import { MOBILE, newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();

const em = () => portal.server.services.orm.em.fork();

async function adminPage(js: boolean, viewport?: { width: number; height: number }) {
  const page = await portal.loggedInPage('admin@demo.test', { js, width: viewport?.width });
  return { ctx: page.context(), page };
}

/** With JS, waits until Remix has taken over the page, so clicks go through the client router. */
async function ready(page: Page, js: boolean) {
  if (js) await page.waitForFunction(() => '__remixRouter' in window);
}

async function fieldState(page: Page, label: string) {
  const input = page.getByLabel(label, { exact: true });
  const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    describedBy
      .split(' ')
      .filter(Boolean)
      .map((id) => page.locator(`#${id}`).textContent()),
  );
  return {
    invalid: await input.getAttribute('aria-invalid'),
    value: await input.inputValue(),
    describedBy: texts.join(' '),
  };
}

describe('companies and users', () => {
  for (const js of [true, false]) {
    const tag = js ? 'JS' : 'noJS';

    it(`creates, searches and edits a company, adds and edits a user, and logs in as the company (JS ${js ? 'on' : 'off'})`, async () => {
      const { ctx, page } = await adminPage(js);
      await page.goto('/admin');
      await ready(page, js);
      await page.getByRole('link', { name: 'Hantera företag' }).click();
      await page.waitForURL((u) => u.pathname === '/admin/companies');
      await ready(page, js);

      // A blank name and a taken customer number: "Något gick fel", the reasons next to the fields, values kept.
      await page.getByLabel('Företagsnamn').fill('   ');
      await page.getByLabel('Kundnummer').fill('100001');
      await page.getByLabel('Fakturamärkning').fill('Behålls');
      await page.getByRole('button', { name: 'Lägg till företag' }).click();
      await page.getByRole('alert').filter({ hasText: 'Något gick fel' }).waitFor();
      await page.waitForLoadState(); // a page posted without JS may still be streaming in
      expect(await fieldState(page, 'Företagsnamn')).toMatchObject({
        invalid: 'true',
        describedBy: 'Ange företagets namn.',
      });
      expect(await fieldState(page, 'Kundnummer')).toEqual({ invalid: null, value: '100001', describedBy: '' });
      expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('Behålls');
      await page.getByLabel('Företagsnamn').fill('Dubblett AB');
      await page.getByRole('button', { name: 'Lägg till företag' }).click();
      await page.locator('#company-customerNumber-error').waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('Något gick fel');
      expect(await fieldState(page, 'Företagsnamn')).toEqual({ invalid: null, value: 'Dubblett AB', describedBy: '' });
      expect(await fieldState(page, 'Kundnummer')).toEqual({
        invalid: 'true',
        value: '100001',
        describedBy: 'Kundnumret används redan av ett annat företag.',
      });
      expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('Behålls');

      // The real thing.
      const name = `Testbolaget ${tag} med ett mycket långt namn AB`;
      await page.getByLabel('Företagsnamn').fill(name);
      await page.getByLabel('Kundnummer').fill(`E2E-${tag}`);
      await page.getByLabel('Fakturamärkning').fill(`Märkning ${tag}`);
      await page.getByRole('button', { name: 'Lägg till företag' }).click();
      await page.getByRole('status').filter({ hasText: 'Företag skapat' }).waitFor();
      await page.waitForLoadState(); // a page posted without JS may still be streaming in
      expect(await page.getByLabel('Företagsnamn').inputValue()).toBe('');
      const company = await em().findOneOrFail(Company, { customerNumber: `E2E-${tag}` });
      expect(company).toMatchObject({ name, invoiceNote: `Märkning ${tag}`, invoiceInterval: 'monthly' });

      // Search on the server (?q=): with JS while typing, without JS by the button.
      await page.getByLabel('Sök företag').fill(`e2e-${tag.toLowerCase()}`);
      if (!js) await page.getByRole('button', { name: 'Sök', exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === `e2e-${tag.toLowerCase()}`);
      const rows = page.locator('table tbody tr');
      await expect.poll(() => page.locator('table tbody tr').count(), { timeout: 30_000 }).toBe(1);
      expect(await rows.count()).toBe(1);
      // The name is cut to 30 characters; the full name is in the tooltip.
      const cell = rows.first().locator('td').first();
      expect(await cell.innerText()).toBe(`${name.slice(0, 30).trimEnd()}…`);
      expect(await cell.locator('[title]').first().getAttribute('title')).toBe(name);
      expect(await rows.first().textContent()).toContain(`E2E-${tag}`);
      expect(await rows.first().textContent()).toContain(`Märkning ${tag}`);

      await rows.first().getByRole('link', { name: 'Redigera' }).click();
      await page.waitForURL((u) => u.pathname === `/admin/companies/${company.id}`);
      await ready(page, js);

      // Edit the company: a taken customer number is refused next to the field, then a good save.
      await page.getByLabel('Kundnummer').fill('100001');
      await page.getByRole('button', { name: 'Spara' }).click();
      await page.getByRole('alert').filter({ hasText: 'Något gick fel' }).waitFor();
      await page.waitForLoadState(); // a page posted without JS may still be streaming in
      expect(await fieldState(page, 'Kundnummer')).toMatchObject({
        invalid: 'true',
        value: '100001',
        describedBy: 'Kundnumret används redan av ett annat företag.',
      });
      await page.getByLabel('Företagsnamn').fill(`Omdöpt ${tag} AB`);
      await page.getByLabel('Kundnummer').fill(`E2E-${tag}-2`);
      await page.getByLabel('Faktureringsintervall').selectOption({ label: 'Kvartalsvis' });
      await page.getByRole('button', { name: 'Spara' }).click();
      await page.getByRole('status').filter({ hasText: 'Företag uppdaterat' }).waitFor();
      await page.waitForLoadState(); // a page posted without JS may still be streaming in
      expect(await em().findOneOrFail(Company, { id: company.id })).toMatchObject({
        name: `Omdöpt ${tag} AB`,
        customerNumber: `E2E-${tag}-2`,
        invoiceInterval: 'quarterly',
      });
      expect(await page.getByLabel('Faktureringsintervall').inputValue()).toBe('quarterly');
      const interval = page.getByLabel('Faktureringsintervall').locator('option');
      expect(await interval.allTextContents()).toEqual(['Månadsvis', 'Kvartalsvis', 'Halvårsvis', 'Årsvis']);

      // Add users: an e-mail taken in another company (other case) is refused, values kept.
      // The role select offers the /company pages' three roles, member first chosen.
      const roles = page.getByLabel('Roll', { exact: true });
      expect(await roles.locator('option').allTextContents()).toEqual(['Ägare', 'Medarbetare', 'Läsbehörig']);
      expect(await roles.inputValue()).toBe('member');
      await page.getByLabel('Namn', { exact: true }).fill('Kopia av Anna');
      await page.getByLabel('E-postadress').fill('ANNA@demo.test');
      await roles.selectOption({ label: 'Läsbehörig' });
      await page.getByRole('button', { name: 'Lägg till', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'Något gick fel' }).waitFor();
      await page.waitForLoadState(); // a page posted without JS may still be streaming in
      expect(await fieldState(page, 'E-postadress')).toEqual({
        invalid: 'true',
        value: 'ANNA@demo.test',
        describedBy: 'E-postadressen används redan av en annan användare.',
      });
      expect(await page.getByLabel('Namn', { exact: true }).inputValue()).toBe('Kopia av Anna');
      expect(await page.getByLabel('Roll', { exact: true }).inputValue()).toBe('viewer');
      if (js) await page.screenshot({ path: 'test-results/admin-company-add-user-error.png', fullPage: true });

      const email = `Ulla.Langnamnsson.${tag}@Exempel.se`;
      await page.getByLabel('Namn', { exact: true }).fill(`Ulla ${tag} Långnamnsson`);
      await page.getByLabel('E-postadress').fill(email);
      await page.getByRole('button', { name: 'Lägg till', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Användare skapad' }).waitFor();
      await page.waitForLoadState(); // a page posted without JS may still be streaming in
      expect(await page.getByLabel('E-postadress').inputValue()).toBe('');
      expect(await page.getByLabel('Roll', { exact: true }).inputValue()).toBe('member');
      await page.getByLabel('Namn', { exact: true }).fill(`Sven ${tag}`);
      await page.getByLabel('E-postadress').fill(`sven.${tag}@exempel.se`);
      await page.getByRole('button', { name: 'Lägg till', exact: true }).click();
      // A locator waits across the no-JS navigation (a page function would be lost with the old page).
      await page
        .locator('table tbody tr')
        .filter({ hasText: `Sven ${tag}` })
        .waitFor();
      expect(await page.locator('table tbody tr').count()).toBe(2);
      const user = await em().findOneOrFail(User, { email: email.toLowerCase() });
      expect(user.company.id).toBe(company.id);
      expect(user.role).toBe('viewer');
      expect((await em().findOneOrFail(User, { email: `sven.${tag.toLowerCase()}@exempel.se` })).role).toBe('member');

      // The user table: name and e-mail cut to 20; searching users on the portal.server.
      const userRow = page.locator('table tbody tr').filter({ hasText: 'Ulla' });
      expect(await userRow.locator('td').nth(1).textContent()).toBe(`${email.toLowerCase().slice(0, 20)}…`);
      await page.getByLabel('Sök användare').fill('sven');
      if (!js) await page.getByRole('button', { name: 'Sök', exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === 'sven');
      await expect.poll(() => page.locator('table tbody tr').count(), { timeout: 30_000 }).toBe(1);
      expect(await page.locator('table tbody tr').textContent()).toContain(`sven.${tag.toLowerCase()}@exempel.se`);
      await page.getByLabel('Sök användare').fill('ulla');
      if (!js) await page.getByRole('button', { name: 'Sök', exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === 'ulla');
      await expect
        .poll(async () => (await page.locator('table tbody tr').allTextContents()).join('|'), { timeout: 30_000 })
        .toMatch(/^[^|]*Ulla[^|]*$/);

      // Edit the user.
      await page.locator('table tbody tr').getByRole('link', { name: 'Redigera' }).click();
      await page.waitForURL((u) => u.pathname === `/admin/companies/${company.id}/${user.id}`);
      await ready(page, js);
      expect(await page.getByLabel('E-postadress').inputValue()).toBe(email.toLowerCase());
      expect(await page.getByLabel('Roll').inputValue()).toBe('viewer');
      expect(await page.getByLabel('Företagsägare').count()).toBe(0);
      // A refused save keeps the chosen role (and the other values) next to the error.
      await page.getByLabel('Namn').fill(`Ulla ${tag} Kortnamn`);
      await page.getByLabel('E-postadress').fill('anna@demo.test');
      await page.getByLabel('Roll').selectOption({ label: 'Ägare' });
      await page.getByRole('button', { name: 'Spara' }).click();
      await page.getByRole('alert').filter({ hasText: 'Något gick fel' }).waitFor();
      await page.waitForLoadState(); // a page posted without JS may still be streaming in
      expect(await page.getByLabel('Roll').inputValue()).toBe('owner');
      expect(await page.getByLabel('Namn').inputValue()).toBe(`Ulla ${tag} Kortnamn`);
      expect((await em().findOneOrFail(User, { id: user.id })).role).toBe('viewer');
      await page.getByLabel('E-postadress').fill(`ULLA.${tag}@exempel.se`);
      await page.getByRole('button', { name: 'Spara' }).click();
      await page.getByRole('status').filter({ hasText: 'Användare uppdaterad' }).waitFor();
      await page.waitForLoadState(); // a page posted without JS may still be streaming in
      expect(await em().findOneOrFail(User, { id: user.id })).toMatchObject({
        name: `Ulla ${tag} Kortnamn`,
        email: `ulla.${tag.toLowerCase()}@exempel.se`,
        role: 'owner',
        isSuperAdmin: false,
      });
      expect(await page.getByLabel('E-postadress').inputValue()).toBe(`ulla.${tag.toLowerCase()}@exempel.se`);
      expect(await page.getByLabel('Roll').inputValue()).toBe('owner');
      // And back to a member: the API's isCompanyOwner follows the role.
      await page.getByLabel('Roll').selectOption({ label: 'Medarbetare' });
      await page.getByRole('button', { name: 'Spara' }).click();
      await expect
        .poll(async () => (await em().findOneOrFail(User, { id: user.id })).role, { timeout: 30_000 })
        .toBe('member');
      await page.getByRole('status').filter({ hasText: 'Användare uppdaterad' }).waitFor();
      await page.waitForLoadState(); // a page posted without JS may still be streaming in
      expect(await page.getByLabel('Roll').inputValue()).toBe('member');
      const admin = await portal.server.sessionCookie('admin@demo.test');
      const viewed = await fetch(`${portal.server.url}/api/admin/getUser/${user.id}`, { headers: { cookie: admin } });
      expect(await viewed.json()).toMatchObject({ role: 'member', isCompanyOwner: false });
      const audit = await em().find(
        AuditEvent,
        { targetType: 'User', targetId: String(user.id) },
        { orderBy: { id: 'asc' } },
      );
      expect(audit.map((a) => a.action)).toEqual(['createUser', 'updateUser', 'updateUser']);

      // Back to the company and log in as it.
      await page.getByRole('link', { name: '< Backa' }).click();
      await page.waitForURL((u) => u.pathname === `/admin/companies/${company.id}`);
      await ready(page, js);
      await page.getByRole('button', { name: 'Logga in som detta företag' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await page.getByText(`Du agerar som Omdöpt ${tag} AB`).waitFor();
      await page.getByRole('button', { name: 'Tillbaka till eget företag' }).click();
      await expect.poll(() => page.getByText('Du agerar som').count(), { timeout: 30_000 }).toBe(0);
      await ctx.close();
    });
  }

  it('refuses a super admin removing their own super-admin flag, with the reason next to the checkbox (JS off)', async () => {
    const admin = await em().findOneOrFail(User, { email: 'admin@demo.test' });
    const { ctx, page } = await adminPage(false);
    await page.goto(`/admin/companies/${admin.company.id}/${admin.id}`);
    await page.getByLabel('Namn').fill('Admin Demo Ändrad');
    await page.getByLabel('Superadministratör').uncheck();
    await page.getByRole('button', { name: 'Spara' }).click();
    await page.getByRole('alert').filter({ hasText: 'Något gick fel' }).waitFor();
    await page.waitForLoadState(); // a page posted without JS may still be streaming in
    const box = page.getByLabel('Superadministratör');
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#user-isSuperAdmin-error').textContent()).toBe(
      'Du kan inte ta bort din egen behörighet som superadministratör.',
    );
    expect(await box.isChecked()).toBe(false);
    expect(await page.getByLabel('Namn').inputValue()).toBe('Admin Demo Ändrad');
    expect(await em().findOneOrFail(User, { id: admin.id })).toMatchObject({ isSuperAdmin: true, name: 'Admin Demo' });
    await ctx.close();
  });

  it('pages the company list on the server', async () => {
    const e = em();
    for (let i = 1; i <= 23; i++)
      e.create(Company, {
        name: `Sida ${String(i).padStart(2, '0')} AB`,
        customerNumber: `P-${i}`,
        invoiceNote: '',
        invoiceInterval: 'monthly',
      });
    await e.flush();
    const { ctx, page } = await adminPage(false);
    await page.goto('/admin/companies?q=Sida');
    expect(await page.locator('table tbody tr').count()).toBe(20);
    expect(await page.getByRole('link', { name: '‹ Föregående' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Nästa ›' }).click();
    await page.waitForURL((u) => u.searchParams.get('page') === '2' && u.searchParams.get('q') === 'Sida');
    expect(await page.locator('table tbody tr td:first-child').allInnerTexts()).toEqual([
      'Sida 21 AB',
      'Sida 22 AB',
      'Sida 23 AB',
    ]);
    expect(await page.getByRole('link', { name: 'Nästa ›' }).count()).toBe(0);
    await page.getByRole('link', { name: '‹ Föregående' }).click();
    await page.waitForURL((u) => !u.searchParams.has('page'));
    expect(await page.locator('table tbody tr td:first-child').first().innerText()).toBe('Sida 01 AB');
    await ctx.close();
  });

  it('fits a 390 px wide phone: no sideways scrolling of the page', async () => {
    const { ctx, page } = await adminPage(true, MOBILE);
    await page.goto('/admin/companies');
    let widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    // The invoice mark column is folded in under the name, not dropped.
    const demoRow = page.getByRole('row').filter({ hasText: 'Demo AB' }).first();
    expect(await demoRow.getByRole('cell').first().innerText()).toContain('Demo AB');
    const note = (await em().findOneOrFail(Company, { customerNumber: '100001' })).invoiceNote;
    if (note) expect(await demoRow.getByRole('cell').first().innerText()).toContain(note.slice(0, 20));
    // "Redigera" is a 44 px tall target on a phone, not a line of text.
    const edit = await demoRow.getByRole('link', { name: /^Redigera/ }).boundingBox();
    expect(edit!.height).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: 'test-results/admin-companies-390.png', fullPage: true });
    const demo = await em().findOneOrFail(Company, { customerNumber: '100001' });
    await page.goto(`/admin/companies/${demo.id}`);
    widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    for (const name of ['Företagets granskningslogg', 'Inloggning och identitetsleverantör'])
      expect((await page.getByRole('link', { name }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: 'test-results/admin-company-390.png', fullPage: true });
    // The user page with its role select.
    const anna = await em().findOneOrFail(User, { email: 'anna@demo.test' });
    await page.goto(`/admin/companies/${demo.id}/${anna.id}`);
    await page.getByLabel('Roll').waitFor();
    widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await page.screenshot({ path: 'test-results/admin-user-390.png', fullPage: true });
    await ctx.close();
  });
});

describe('the role in the company page’s user table', () => {
  for (const js of [true, false]) {
    it(`shows each user's role, as /company does, and a super admin's flag (JS ${js ? 'on' : 'off'})`, async () => {
      const { ctx, page } = await adminPage(js);
      const demo = await em().findOneOrFail(Company, { customerNumber: '100001' });
      await page.goto(`/admin/companies/${demo.id}`);
      await ready(page, js);
      const table = page.getByRole('table', { name: 'Användare' });
      const headers = await table.getByRole('columnheader').allInnerTexts();
      expect(headers.slice(0, 3)).toEqual(['Namn', 'E-postadress', 'Roll']);
      const roleOf = async (name: string) =>
        (await table.getByRole('row').filter({ hasText: name }).getByRole('cell').nth(2).innerText()).trim();
      expect(await roleOf('Ella Ägare')).toBe('Ägare');
      expect(await roleOf('Anna Andersson')).toBe('Medarbetare');
      // The staff company's super admin: the role and the flag.
      const admin = await em().findOneOrFail(User, { email: 'admin@demo.test' }, { populate: ['company'] });
      await page.goto(`/admin/companies/${admin.company.id}`);
      await ready(page, js);
      expect(await roleOf('Admin Demo')).toBe('Medarbetare\nSuperadministratör');
      await ctx.close();
    });
  }
});

describe('the role on the user page', () => {
  it('refuses a role that is none of the three next to the select, showing the saved one (a hand-made post)', async () => {
    const demo = await em().findOneOrFail(Company, { customerNumber: '100001' });
    const anna = await em().findOneOrFail(User, { email: 'anna@demo.test' });
    const cookie = await portal.server.sessionCookie('admin@demo.test');
    const res = await fetch(`${portal.server.url}/admin/companies/${demo.id}/${anna.id}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'Anna Andersson', email: 'anna@demo.test', role: 'admin' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(
      '<p id="user-role-error" class="error">Välj en roll: Ägare, Medarbetare eller Läsbehörig.</p>',
    );
    expect(html).toMatch(/<option value="member" selected="">Medarbetare<\/option>/);
    expect((await em().findOneOrFail(User, { id: anna.id })).role).toBe('member');
  });
});

describe('who reaches the admin pages', () => {
  it('a regular user gets the 403 page on every admin page and action; anonymous goes to the login', async () => {
    const demo = await em().findOneOrFail(Company, { customerNumber: '100001' });
    const anna = await em().findOneOrFail(User, { email: 'anna@demo.test' });
    const paths = [
      '/admin',
      '/admin/companies',
      `/admin/companies/${demo.id}`,
      `/admin/companies/${demo.id}/${anna.id}`,
    ];
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    for (const p of paths) {
      const res = await fetch(portal.server.url + p, { headers: { cookie }, redirect: 'manual' });
      expect(res.status, p).toBe(403);
      expect(await res.text()).toContain('Åtkomst nekad');
      const anon = await fetch(portal.server.url + p, { redirect: 'manual' });
      expect(anon.status, p).toBe(302);
      expect(anon.headers.get('location')).toBe(`/login?redirectTo=${encodeURIComponent(p)}`);
    }
    const post = await fetch(portal.server.url + '/admin/companies?index', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'createCompany', name: 'Smyg AB', customerNumber: 'SMYG' }),
      redirect: 'manual',
    });
    expect(post.status).toBe(403);
    expect(await em().count(Company, { customerNumber: 'SMYG' })).toBe(0);
    // Only super admins see the Admin button.
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: false, cookie });
    const page = await ctx.newPage();
    await page.goto('/admin/companies');
    await page.getByRole('heading', { name: 'Åtkomst nekad' }).waitFor();
    await ctx.close();
  });

  it('a user of another company in the URL, or an unknown id, is a 404', async () => {
    const e = em();
    const other = e.create(Company, {
      name: 'Främmande AB',
      customerNumber: 'OTHER-1',
      invoiceNote: '',
      invoiceInterval: 'monthly',
    });
    await e.flush();
    const anna = await em().findOneOrFail(User, { email: 'anna@demo.test' });
    const cookie = await portal.server.sessionCookie('admin@demo.test');
    for (const p of [
      `/admin/companies/${other.id}/${anna.id}`,
      '/admin/companies/999999',
      '/admin/companies/abc',
      `/admin/companies/${other.id}/999999`,
    ]) {
      const res = await fetch(portal.server.url + p, { headers: { cookie }, redirect: 'manual' });
      expect(res.status, p).toBe(404);
    }
    // Saving through the wrong company changes nothing.
    const res = await fetch(`${portal.server.url}/admin/companies/${other.id}/${anna.id}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'updateUser', name: 'Kapad', email: 'anna@demo.test', isSuperAdmin: 'on' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(404);
    expect(await em().findOneOrFail(User, { id: anna.id })).toMatchObject({
      name: 'Anna Andersson',
      isSuperAdmin: false,
    });
  });
});

describe('REST paths of the spec (/api/admin/*), served by the same procedures', () => {
  const api = (path: string, init: { method?: string; cookie?: string; body?: unknown } = {}) =>
    fetch(portal.server.url + '/api' + path, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });

  it('answers 401 anonymous, 403 for a regular user and 200 for a super admin on every admin path', async () => {
    const demo = await em().findOneOrFail(Company, { customerNumber: '100001' });
    const anna = await em().findOneOrFail(User, { email: 'anna@demo.test' });
    const paths: Array<[string, string, unknown?]> = [
      ['GET', '/admin/getCompanies'],
      ['POST', '/admin/createCompany', { name: 'REST AB', customerNumber: 'REST-1' }],
      ['GET', `/admin/getCompany/${demo.id}`],
      [
        'PUT',
        '/admin/updateCompany',
        {
          id: demo.id,
          name: 'Demo AB',
          customerNumber: '100001',
          invoiceNote: 'Demo AB, ref. Inköp',
          invoiceInterval: 'monthly',
        },
      ],
      ['POST', '/admin/createUser', { name: 'Rest Person', email: 'rest.person@demo.test', companyId: demo.id }],
      ['GET', `/admin/getUser/${anna.id}`],
      [
        'PUT',
        '/admin/updateUser',
        { id: anna.id, name: 'Anna Andersson', email: 'anna@demo.test', isCompanyOwner: false, isSuperAdmin: false },
      ],
    ];
    const user = await portal.server.sessionCookie('anna@demo.test');
    const admin = await portal.server.sessionCookie('admin@demo.test');
    for (const [method, path, body] of paths) {
      expect((await api(path, { method, body })).status, `${method} ${path}`).toBe(401);
      const refused = await api(path, { method, body, cookie: user });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect((await refused.json()).error).toBe('Du har inte behörighet till detta.');
      expect((await api(path, { method, body, cookie: admin })).status, `${method} ${path}`).toBe(200);
    }
    expect(await em().count(Company, { customerNumber: 'REST-1' })).toBe(1);
  });

  it('answers with the spec shapes, 400/409 with { error, issues } and 404 for another company', async () => {
    const admin = await portal.server.sessionCookie('admin@demo.test');
    const created = await api('/admin/createCompany', {
      method: 'POST',
      cookie: admin,
      body: { name: 'Json AB', customerNumber: 'JSON-1' },
    });
    const { newCompany } = await created.json();
    expect(newCompany).toMatchObject({
      name: 'Json AB',
      customerNumber: 'JSON-1',
      invoiceNote: '',
      invoiceInterval: 'monthly',
    });
    const dup = await api('/admin/createCompany', {
      method: 'POST',
      cookie: admin,
      body: { name: 'Json 2 AB', customerNumber: 'JSON-1' },
    });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toEqual({
      error: 'Kundnumret används redan av ett annat företag.',
      issues: [{ path: ['customerNumber'], message: 'Kundnumret används redan av ett annat företag.' }],
    });
    const bad = await api('/admin/createUser', {
      method: 'POST',
      cookie: admin,
      body: { name: 'X', email: 'inte-en-adress', companyId: newCompany.id },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).issues).toEqual([{ path: ['email'], message: 'Ange en giltig e-postadress.' }]);
    const { newUser } = await (
      await api('/admin/createUser', {
        method: 'POST',
        cookie: admin,
        body: { name: 'Json Person', email: 'Json@Exempel.se', companyId: newCompany.id },
      })
    ).json();
    expect(newUser).toMatchObject({
      email: 'json@exempel.se',
      companyId: newCompany.id,
      isCompanyOwner: false,
      isSuperAdmin: false,
    });
    const company = await (await api(`/admin/getCompany/${newCompany.id}`, { cookie: admin })).json();
    expect(company.users.map((u: { email: string }) => u.email)).toEqual(['json@exempel.se']);
    const found = await (await api(`/admin/getCompanies?q=json-1&limit=5&offset=0`, { cookie: admin })).json();
    expect(found.map((c: { id: number }) => c.id)).toEqual([newCompany.id]);
    const anna = await em().findOneOrFail(User, { email: 'anna@demo.test' });
    expect((await api(`/admin/getUser/${anna.id}?companyId=${newCompany.id}`, { cookie: admin })).status).toBe(404);
    expect((await api('/admin/getCompany/999999', { cookie: admin })).status).toBe(404);
  });
});
