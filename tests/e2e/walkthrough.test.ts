// A whole working day in Chromium with JavaScript disabled: log in by the mailed link, activate a SIM,
// search, edit, deactivate, export a file, send feedback; then, as super admin, create a company and a user
// (a super admin must have a passkey, which needs JavaScript: without it the link is followed by a recovery code).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { replaceRecoveryCodes } from '#server/auth/recovery-codes.ts';
import { Company, Feedback, Sim, User } from '#server/db/entities.ts';
import { ensureFixturePasskey } from '#tests/helpers/signed-in.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { linkIn } from '#tests/helpers/smtp.ts';

const portal = useScreens({ smtp: true, env: { SUPPORT_EMAIL: 'support@test.se' } });

async function logIn(page: Page, email: string, recoveryCode?: string) {
  await page.goto('/');
  await page.getByLabel('E-postadress').fill(email);
  await page.getByRole('button', { name: 'Skicka inloggningslänk' }).click();
  await page.getByText('Om det finns ett konto för adressen').waitFor();
  await portal.server.services.settled();
  await page.goto(linkIn(portal.smtp.to(email).at(-1)!.raw));
  await page.getByRole('button', { name: 'Logga in' }).click();
  if (recoveryCode) {
    // The passkey after the link: without JavaScript, one of the recovery codes.
    await page.getByLabel('Återställningskod').fill(recoveryCode);
    await page.getByRole('button', { name: 'Använd koden' }).click();
  }
  await page.getByRole('navigation', { name: 'Start' }).waitFor();
}

describe('no-JS walk-through', () => {
  it('a company user gets through every task without JavaScript', async () => {
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: false });
    const page = await ctx.newPage();
    await logIn(page, 'anna@demo.test');

    const iccid = withCheckDigit('8946011112222333440');
    await page.getByRole('link', { name: 'Aktivera SIM-kort' }).click();
    await page.getByLabel('ICCID').fill(iccid);
    await page.getByLabel('Fakturamärkning').fill('Genomgång');
    await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
    await page.getByRole('button', { name: 'Aktivera' }).click();
    await page.getByRole('status').filter({ hasText: 'SIM-kortet är aktiverat' }).waitFor();

    await page.goto('/sims');
    await page.getByLabel('Sök bland SIM-kort').fill('genomgång');
    await page.getByRole('button', { name: 'Sök' }).click();
    await page.getByRole('link', { name: `Redigera SIM-kort ${iccid}` }).click();
    await page.getByLabel('Fakturakommentar').fill('Ändrad utan JS');
    await page.getByRole('button', { name: 'Spara' }).click();
    await page.getByRole('cell', { name: 'Fakturakommentar ändrad från (tom) till ”Ändrad utan JS”' }).waitFor();
    await page.getByRole('link', { name: 'Avaktivera' }).click();
    await page.getByRole('button', { name: 'Fortsätt' }).click();
    await page.waitForURL((u) => u.pathname === '/sims');
    const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { iccid });
    expect(sim).toMatchObject({ status: 'deactivated', invoiceLineNote: 'Ändrad utan JS' });

    await page.goto('/export');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportera' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Sim_export\d{4}\d{1,2}-\d{4}\d{1,2}\.xlsx$/);

    await page.goto('/feedback');
    await page.getByLabel('Ditt meddelande').fill('Allt gick bra utan JavaScript.');
    await page.getByRole('button', { name: 'Skicka' }).click();
    await page.getByRole('status').filter({ hasText: 'Tack för din feedback!' }).waitFor();
    expect(
      await portal.server.services.orm.em.fork().count(Feedback, { message: 'Allt gick bra utan JavaScript.' }),
    ).toBe(1);

    await page.goto('/');
    await page.getByRole('button', { name: 'Logga ut' }).click();
    await page.waitForURL('**/login');
    await ctx.close();
  });

  it('a super admin creates a company and a user without JavaScript', async () => {
    // The super admin added a passkey (and got recovery codes) earlier, with JavaScript.
    const em = portal.server.services.orm.em.fork();
    const admin = await em.findOneOrFail(User, { email: 'admin@demo.test' });
    await ensureFixturePasskey(em, admin.id);
    const [code] = await em.transactional((tx) => replaceRecoveryCodes(tx, admin.id));
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: false });
    const page = await ctx.newPage();
    await logIn(page, 'admin@demo.test', code);
    await page.getByRole('navigation', { name: 'Start' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('link', { name: 'Hantera företag' }).click();
    await page.getByLabel('Företagsnamn').fill('Genomgång AB');
    await page.getByLabel('Kundnummer').fill('GG-1');
    await page.getByLabel('Fakturamärkning').fill('Ref. Genomgång');
    await page.getByRole('button', { name: 'Lägg till företag' }).click();
    await page.getByRole('status').filter({ hasText: 'Företag skapat' }).waitFor();
    const company = await portal.server.services.orm.em.fork().findOneOrFail(Company, { customerNumber: 'GG-1' });
    await page.goto(`/admin/companies/${company.id}`);
    await page.getByLabel('Namn', { exact: true }).fill('Greta Genomgång');
    await page.getByLabel('E-postadress').fill('greta@genomgang.se');
    await page.getByRole('button', { name: 'Lägg till', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Användare skapad' }).waitFor();
    const greta = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(User, { email: 'greta@genomgang.se' }, { populate: ['company'] });
    expect(greta.company.id).toBe(company.id);
    await ctx.close();
  });
});
