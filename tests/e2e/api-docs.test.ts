// /api/docs in a real Chromium: the reference renders the document's operations with no Content-Security-Policy
// violation and no request to another origin, at 1280 px (axe's WCAG 2.1 AA too) and on a 390 px phone without
// sideways scrolling (screenshots in test-results/); without JS the noscript text links the document;
// /company/api-keys links it.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, newContext } from '#tests/helpers/browser.ts';
import { companyWithOwner, ready } from '#tests/helpers/company.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();

/** A page of /api/docs without a session, with what it violated and where else it tried to go. */
async function docsPage(width: number) {
  const context = await newContext(portal.browser, {
    baseURL: portal.server.url,
    viewport: { width, height: width <= 390 ? 844 : 800 },
  });
  const violations: string[] = [];
  const elsewhere: string[] = [];
  await context.exposeFunction('reportViolation', (text: string) => void violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportViolation: (t: string) => void }).reportViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  // Nothing leaves the portal: a request to another origin is noted and refused.
  await context.route(
    (url) => url.origin !== portal.server.url,
    (route) => {
      elsewhere.push(route.request().url());
      return route.abort();
    },
  );
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
  return { page, violations, elsewhere, close: () => context.close() };
}

/** Opens the reference at the bulk activation, an operation of the document, and waits for it to be drawn. */
async function rendered(page: Page) {
  // Scalar draws a tag's operations as they come into view; its anchor for one brings it there.
  // The first reader waits for the 4 MB bundle to be compressed once (seconds on a loaded machine).
  await page.goto('/api/docs#tag/sims/POST/sim/bulk', { waitUntil: 'domcontentloaded', timeout: 60_000 });
  expect(await page.title()).toBe('API-referens – SIM-portalen');
  const bulk = page.getByRole('heading', { name: /^Activate a list of SIMs/ });
  await bulk.waitFor({ timeout: 60_000 });
  await expect.poll(() => page.locator('section', { has: bulk }).first().innerText()).toContain('/sim/bulk');
}

describe('/api/docs', () => {
  it('renders the operations at 1280 px without a policy violation or a request elsewhere', async () => {
    const { page, violations, elsewhere, close } = await docsPage(1280);
    await rendered(page);
    await page.screenshot({ path: 'test-results/api-docs-desktop.png' });
    expect(violations).toEqual([]);
    expect(elsewhere).toEqual([]);
    // WCAG 2.1 AA at the top of the reference (at 390 px Scalar's scrolling endpoint lists are not focusable:
    // axe's scrollable-region-focusable, the third party's own, so the phone is not checked).
    await page.goto('/api/docs');
    await page.getByRole('heading', { name: 'SIM-portalen API', level: 1 }).waitFor({ timeout: 60_000 });
    expect(await axeViolations(page)).toEqual([]);
    await close();
  }, 200_000);

  it('fits a 390 px phone: no sideways scrolling', async () => {
    const { page, violations, elsewhere, close } = await docsPage(390);
    await rendered(page);
    await page.screenshot({ path: 'test-results/api-docs-390.png' });
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    // And nothing to read is cut at the edge (the page clips what hangs over it): headings and text fit.
    const over = await page.evaluate(() =>
      [...document.querySelectorAll('h1, h2, h3, p, header')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((e) => e.textContent.slice(0, 60)),
    );
    expect(over).toEqual([]);
    expect(violations).toEqual([]);
    expect(elsewhere).toEqual([]);
    await close();
  }, 150_000);

  it('without JS says so in Swedish and links the OpenAPI document', async () => {
    const context = await newContext(portal.browser, { baseURL: portal.server.url, js: false });
    const page = await context.newPage();
    await page.goto('/api/docs');
    // Playwright's text and role locators pass over <noscript>: found by CSS.
    expect(await page.locator('noscript p').innerText()).toContain('API-referensen behöver JavaScript.');
    await page.locator('noscript a[href="/api/openapi.json"]').click();
    await page.waitForURL((u) => u.pathname === '/api/openapi.json');
    expect(await page.content()).toContain('"openapi":"3.1');
    await context.close();
  }, 30_000);

  it('is linked from /company/api-keys', async () => {
    const { ownerEmail } = await companyWithOwner(portal.server, 'Docs', 'link');
    const page = await portal.loggedInPage(ownerEmail);
    await page.goto('/company/api-keys');
    await ready(page, true);
    await page.getByRole('link', { name: 'API-referens' }).click();
    await page.waitForURL((u) => u.pathname === '/api/docs');
    await page.getByRole('heading', { name: 'SIM-portalen API', level: 1 }).waitFor({ timeout: 60_000 });
    await page.context().close();
  }, 120_000);
});
