// No layout shift while JavaScript loads: each page opened as a first visit over a slow network (400 kbps,
// 400 ms latency) with JS on, at a phone's width and a desktop's, moves nothing from its first paint until it has
// hydrated and its lazy requests are over. The browser's own 'layout-shift' entries are summed; the sum must be 0
// (a shift is a fact, not a timing), and a failure names the elements that moved.
import { describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { layoutShiftOf } from '#tests/helpers/layout-shift.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();

/** A member who may add SIMs (no step-up prompt on these pages); /login is visited signed out. */
const PAGES: Array<{ path: string; email: string | null }> = [
  { path: '/add', email: 'anna@demo.test' },
  { path: '/add/bulk', email: 'anna@demo.test' },
  { path: '/sims', email: 'anna@demo.test' },
  { path: '/', email: 'anna@demo.test' },
  { path: '/login', email: null },
];

describe('layout shift on a slow network with JavaScript', () => {
  it('is seen: a paragraph put above the form after the page loaded moves it', { timeout: 120_000 }, async () => {
    const context = await newContext(portal.browser, { baseURL: portal.server.url, viewport: MOBILE });
    try {
      const page = await context.newPage();
      // The shift to be seen, made on purpose late: 200 ms after the page has loaded (not a wait).
      await page.addInitScript(() =>
        addEventListener('load', () =>
          setTimeout(() => {
            const p = document.createElement('p');
            p.textContent = 'Infogad efteråt';
            document.querySelector('main h1')?.after(p);
          }, 200),
        ),
      );
      const seen = await layoutShiftOf(page, portal.server.url + '/login');
      expect(seen.cls).toBeGreaterThan(0);
      expect(seen.shifts.flatMap((s) => s.sources).join('\n')).toMatch(/form/);
    } finally {
      await context.close();
    }
  });

  for (const { path, email } of PAGES)
    for (const [name, viewport] of [
      ['a phone', MOBILE],
      ['a desktop', DESKTOP],
    ] as const)
      it(`${path} on ${name}: nothing moves (CLS 0)`, { timeout: 120_000 }, async () => {
        const cookie = email ? await portal.server.sessionCookie(email) : undefined;
        const context = await newContext(portal.browser, { baseURL: portal.server.url, viewport, cookie });
        try {
          const page = await context.newPage();
          const seen = await layoutShiftOf(page, portal.server.url + path);
          // Landed on the page itself (not sent to /login), and it hydrated before the measure ended.
          expect(new URL(page.url()).pathname).toBe(path);
          expect(seen.shifts, `CLS ${seen.cls}`).toEqual([]);
          expect(seen.cls).toBe(0);
        } finally {
          await context.close();
        }
      });
});
