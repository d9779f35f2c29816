// What matters stays whole on a phone (issue 41, finding 5), at 390 px in a real Chromium without JS: the admin's
// list of companies keeps a name's every word on one line ("Personal (superadministratörer…", cut at 30 as SPEC
// says, not "superadministrat/örer…", the customer number folded under it), and the bulk preview's badges and shortened
// ICCIDs stay on one line ("…57800010" with its row's number under it, "Klart att aktivera" in one line).
// The acting line's whole name is in tests/e2e/header.test.ts.
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MOBILE } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946558');

/** The words of the element's text that a line break cuts in two (each word's range has one box when whole). */
const brokenWords = (el: Locator) =>
  el.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of (node.textContent ?? '').matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
    return broken;
  });

const lineCount = (el: Locator) =>
  el.evaluate((e) => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)));

describe('whole on a phone', () => {
  it("the admin's companies: a long Swedish word is not broken inside, the customer number under the name", async () => {
    const page = await portal.loggedInPage('admin@demo.test', { js: false, width: MOBILE.width });
    await page.goto('/admin/companies');
    const row = page.locator('tbody tr', { hasText: 'Personal (superadministratörer' });
    const name = row.locator('td').first();
    // Cut at 30 characters as SPEC says, and not broken inside a word.
    expect(await name.innerText()).toContain('Personal (superadministratörer…');
    expect(await brokenWords(name)).toEqual([]);
    // Its label is for a screen reader (the column's heading is not shown on a phone).
    expect(await name.locator('.cell-sub').first().innerText()).toMatch(/^Kundnummer\s+PERSONAL$/);
    expect(await name.locator('.cell-sub .visually-hidden').first().innerText()).toBe('Kundnummer');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.context().close();
  });

  it("the bulk preview's ICCIDs and badges: one line each, the row's number under the ICCID", async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: false, width: MOBILE.width });
    await page.goto('/add/bulk');
    const list = [newIccid(), newIccid()];
    await page.getByLabel('ICCID-nummer').fill([...list, list[0]].join('\n'));
    await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
    await page.getByRole('button', { name: 'Förhandsgranska' }).click();
    await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
    const rows = page.locator('.bulk-rows tbody tr');
    expect(await rows.count()).toBe(3);
    for (const row of await rows.all()) {
      const badge = row.locator('.badge');
      expect(['Klart att aktivera', 'Dubblett i listan']).toContain(await badge.innerText());
      expect(await lineCount(badge.locator('.badge-text'))).toBe(1);
      const short = row.locator('td.iccid > .only-mobile').first();
      expect(await short.innerText()).toMatch(/^…\d{8}$/);
      expect(await lineCount(short)).toBe(1);
    }
    expect(await rows.locator('td.iccid .cell-sub').allInnerTexts()).toEqual(['Rad 3', 'Rad 1', 'Rad 2']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.context().close();
  });
});
