// /add/bulk on a wide screen after a preview of 100 rows (issue 41, finding 1): the preview is the second column
// beside the list and the form, and it grows downwards on its own. The plan fields and "Förhandsgranska" stay right
// under the list (they dropped to y = 3,100 px below an empty column when the tall preview stretched the first
// row of the page's grid). JS on and off, at 1100 and 1280 px; on a phone the order is list, preview, form.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MOBILE, pasteInto } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946445');

async function previewOf100(js: boolean, width: number): Promise<Page> {
  const page = await portal.loggedInPage('anna@demo.test', { js, width });
  await page.goto('/add/bulk');
  if (js) await page.waitForFunction(() => '__remixRouter' in window);
  await pasteInto(page.getByLabel('ICCID-nummer'), Array.from({ length: 100 }, newIccid).join('\n'));
  await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
  if (!js) await page.getByRole('button', { name: 'Förhandsgranska' }).click();
  await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
  await page.getByRole('button', { name: 'Aktivera 100 SIM-kort' }).waitFor();
  return page;
}

const box = async (page: Page, selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not drawn`);
  return b;
};

describe('/add/bulk after a preview of 100 rows', () => {
  for (const js of [true, false])
    for (const width of [1100, 1280])
      it(`keeps the form right under the list and the preview beside them (${width} px, JS ${js ? 'on' : 'off'})`, async () => {
        const page = await previewOf100(js, width);
        const list = await box(page, '.bulk-listcard');
        const form = await box(page, '.bulk-formcard');
        const side = await box(page, '.bulk-side');
        const submit = await page.getByRole('button', { name: 'Förhandsgranska' }).boundingBox();
        // The preview is the second column, taller than the two cards together.
        expect(side.x).toBeGreaterThan(list.x + list.width);
        expect(side.height).toBeGreaterThan(list.height + form.height);
        // The form follows the list with only the grid's gap between them, whatever the preview's height.
        expect(form.y - (list.y + list.height)).toBeGreaterThanOrEqual(0);
        expect(form.y - (list.y + list.height)).toBeLessThan(48);
        expect(submit!.y + submit!.height).toBeLessThanOrEqual(form.y + form.height);
        // For a human to look at (test-results/); CI skips it.
        if (!process.env.CI && js) await page.screenshot({ path: `test-results/bulk-preview-100-${width}.png` });
        await page.context().close();
      });

  it('on a phone puts the list, the preview and the form one under the other', async () => {
    const page = await previewOf100(true, MOBILE.width);
    const list = await box(page, '.bulk-listcard');
    const side = await box(page, '.bulk-side');
    const form = await box(page, '.bulk-formcard');
    expect(side.y).toBeGreaterThanOrEqual(list.y + list.height);
    expect(form.y).toBeGreaterThanOrEqual(side.y + side.height);
    await page.context().close();
  });
});
