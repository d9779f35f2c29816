// Bulk activation on a slow network (issue 41, finding 6), in a real Chromium with JS, at 390 px: the preview's
// "Aktivera N SIM-kort" shows progress and the page never contradicts itself. A pasted list runs in the live view's
// chunks ("Aktiverar… 500 / 600" while the second chunk is on its way); a file's rows are posted as the page's form,
// and while that answer is on its way the panel says "Aktiverar 3 SIM-kort…" instead of "Inget är aktiverat ännu",
// and the toast the event stream brought first waits for the answer.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { MOBILE, pasteInto } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946556');

const activeCount = (iccids: string[]) =>
  portal.server.services.orm.em.fork().count(Sim, { iccid: { $in: iccids }, status: 'active' });
const count = (page: Page, outcome: string) => page.locator(`.bulk-counts [data-outcome=${outcome}] dd`).innerText();

async function open(): Promise<Page> {
  const page = await portal.loggedInPage('anna@demo.test', { js: true, width: MOBILE.width });
  await page.goto('/add/bulk');
  await page.waitForFunction(() => '__remixRouter' in window);
  return page;
}

async function choosePlan(page: Page) {
  await page.getByLabel('Fakturamärkning').fill('Långsamt nät');
  await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
}

/** A promise and the function that settles it. */
function gate(): [Promise<void>, () => void] {
  let open!: () => void;
  return [new Promise<void>((r) => (open = r)), () => open()];
}

describe('/add/bulk on a slow network', () => {
  it('a pasted list: the preview\'s "Aktivera" counts up chunk by chunk, and the toast comes with the result', async () => {
    const page = await open();
    const list = Array.from({ length: 600 }, () => newIccid());
    await pasteInto(page.getByLabel('ICCID-nummer'), list.join('\n'));
    await choosePlan(page);
    await page.getByRole('button', { name: 'Förhandsgranska' }).click();
    await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
    await expect.poll(() => count(page, 'ready')).toBe('600');

    // The second chunk waits until the page has been looked at.
    const [release, releaseNow] = gate();
    const [held, heldNow] = gate();
    let chunks = 0;
    await page.route('**/api/trpc/**', async (route) => {
      if (!route.request().url().includes('bulkActivateChunk')) return route.continue();
      chunks++;
      if (chunks === 2) {
        heldNow();
        await release;
      }
      return route.continue();
    });
    await page.getByRole('button', { name: 'Aktivera 600 SIM-kort' }).click();
    await held;
    const status = page.getByRole('status').filter({ hasText: 'Aktiverar…' });
    await expect.poll(() => status.innerText()).toBe('Aktiverar… 500 / 600');
    expect(await page.locator('#bulk-live progress').getAttribute('value')).toBe('500');
    expect(await page.getByText('Inget är aktiverat ännu').count()).toBe(0);
    expect(await page.locator('.toast').count()).toBe(0);
    expect(await activeCount(list)).toBe(500);
    releaseNow();

    await page.getByRole('heading', { name: 'Resultat' }).waitFor();
    expect(await count(page, 'activated')).toBe('600');
    await page.locator('.toast', { hasText: '600 SIM-kort är aktiverade' }).waitFor();
    expect(chunks).toBe(2);
    expect(await activeCount(list)).toBe(600);
    await page.context().close();
  });

  it("a file's rows: while the answer is on its way the panel says so, and the stream's toast waits for it", async () => {
    const page = await open();
    const list = [newIccid(), newIccid(), newIccid()];
    await page
      .getByLabel('Eller ladda upp en fil')
      .setInputFiles({ name: 'lista.csv', mimeType: 'text/csv', buffer: Buffer.from(`iccid\n${list.join('\n')}\n`) });
    await choosePlan(page);
    await page.getByRole('button', { name: 'Förhandsgranska' }).click();
    await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
    expect(await count(page, 'ready')).toBe('3');

    // The event stream's messages, as Chromium receives them: the toast of the activation arrives through it.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const [streamed, streamedNow] = gate();
    cdp.on('Network.eventSourceMessageReceived', (e: { eventName: string; data: string }) => {
      if (e.eventName === 'toast' && e.data.includes('3 SIM-kort är aktiverade')) streamedNow();
    });
    // The activation's answer is held back until the toast has come through the stream: a slow network's order.
    const [release, releaseNow] = gate();
    await page.route('**/add/bulk*', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const response = await route.fetch();
      await release;
      return route.fulfill({ response });
    });
    await page.getByRole('button', { name: 'Aktivera 3 SIM-kort' }).click();
    await streamed;
    // The server has activated them and said so; the page has not had the answer yet.
    expect(await activeCount(list)).toBe(3);
    await page.getByRole('status').filter({ hasText: 'Aktiverar 3 SIM-kort…' }).waitFor();
    expect(await page.getByText('Inget är aktiverat ännu').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Aktivera 3 SIM-kort' }).isDisabled()).toBe(true);
    expect(await page.locator('.toast').count()).toBe(0);
    releaseNow();

    await page.getByRole('heading', { name: 'Resultat' }).waitFor();
    expect(await count(page, 'activated')).toBe('3');
    // The toast, once (the flash of the same action is the same toast).
    await page.locator('.toast', { hasText: '3 SIM-kort är aktiverade' }).waitFor();
    expect(await page.locator('.toast').count()).toBe(1);
    await page.context().close();
  });
});
