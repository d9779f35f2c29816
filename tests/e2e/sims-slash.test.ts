// "/" on /sims puts the keyboard in the search (issue 41, finding 2), as every console's list does: from anywhere on
// the page, the text there selected so that typing replaces it; but never while the user types elsewhere (a "/" in
// the search itself, or in a tag field, is a character), nor with a modifier held. The input says so to assistive
// technology (aria-keyshortcuts).
import { describe, expect, it } from 'vitest';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();

describe('/ on /sims', () => {
  it('focuses the search from the page, and is typed as a character inside a field', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: true });
    await page.goto('/sims?q=8946');
    await page.waitForFunction(() => '__remixRouter' in window);
    const search = page.locator('#q');
    await expect.poll(() => search.getAttribute('aria-keyshortcuts')).toBe('/');
    // Focus starts on the page, not in a field.
    await page.locator('h1').click();
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('q');
    // The text there is selected: what is typed next replaces it, and nothing of the "/" is typed.
    expect(await search.evaluate((e: HTMLInputElement) => [e.selectionStart, e.selectionEnd, e.value])).toEqual([
      0,
      4,
      '8946',
    ]);
    // In the search, "/" is a character.
    await page.keyboard.press('End');
    await page.keyboard.press('/');
    await expect.poll(() => search.inputValue()).toBe('8946/');
    // With a modifier held (the browser's own shortcuts), nothing moves.
    await page.locator('h1').click();
    await page.keyboard.press('Control+/');
    expect(await page.evaluate(() => document.activeElement?.id ?? '')).not.toBe('q');
    await page.context().close();
  });

  it('does nothing without JS, where the page stays as it was', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    await page.goto('/sims');
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id ?? '')).not.toBe('q');
    await expect.poll(() => page.locator('#q').getAttribute('aria-keyshortcuts')).toBe('/');
    await page.context().close();
  });
});
