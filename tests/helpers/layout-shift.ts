// Cumulative layout shift of a page's first visit as a phone on a slow network sees it: the browser's own
// 'layout-shift' entries (PerformanceObserver, buffered) summed, without those right after an input, from the
// first paint until the page has hydrated and nothing but the event stream has been in flight for a while.
// Used by tests/e2e/layout-shift.test.ts and `npm run bench:pages`.
import type { Page } from 'playwright-core';

/** 400 kbps both ways with 400 ms latency: the slow network of the spec's phone. */
export const SLOW_NETWORK = { latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };

export type Shift = { value: number; at: number; sources: string[] };
export type LayoutShift = { cls: number; shifts: Shift[]; hydratedMs: number; quietMs: number };

declare global {
  interface Window {
    __layoutShifts?: Shift[];
  }
}

/** What the page runs before its own scripts: an observer that keeps every shift with the elements that moved. */
function observeShifts() {
  type Entry = PerformanceEntry & {
    value: number;
    hadRecentInput: boolean;
    sources?: Array<{ node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }>;
  };
  const describe = (node: Node | null | undefined) => {
    if (!node || !(node instanceof Element)) return node?.nodeName ?? '?';
    const cls =
      typeof node.className === 'string' && node.className ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
    return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${cls}`;
  };
  const rect = (r: DOMRectReadOnly) =>
    `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
  window.__layoutShifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Entry[]) {
      if (e.hadRecentInput) continue;
      window.__layoutShifts!.push({
        value: e.value,
        at: Math.round(e.startTime),
        sources: (e.sources ?? []).map((s) => `${describe(s.node)} ${rect(s.previousRect)} -> ${rect(s.currentRect)}`),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * Opens `url` in `page` (a fresh context's page, JS on) over SLOW_NETWORK unless `throttle` is false, waits until
 * Remix has hydrated and no request but the event stream has been in flight for `quietMs`, then `settleMs` more,
 * and returns the shifts seen. Not a timing: a shift happens or it does not; the waits only make sure the moments
 * a shift could happen (styles, hydration, lazy imports after it) are over.
 */
export async function layoutShiftOf(
  page: Page,
  url: string,
  o: { throttle?: boolean; quietMs?: number; settleMs?: number; timeoutMs?: number } = {},
): Promise<LayoutShift> {
  const quietFor = o.quietMs ?? 1000;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  if (o.throttle !== false) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_NETWORK });
  await page.addInitScript(observeShifts);

  const inflight = new Set<unknown>();
  let lastActivity = Date.now();
  const onRequest = (req: { resourceType(): string }) => {
    if (req.resourceType() === 'eventsource') return;
    inflight.add(req);
    lastActivity = Date.now();
  };
  const onDone = (req: unknown) => {
    inflight.delete(req);
    lastActivity = Date.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  const started = Date.now();
  try {
    await page.goto(url, { waitUntil: 'load', timeout: o.timeoutMs ?? 60_000 });
    // Remix's router exists once the entry has run and hydration has begun; two frames later it has rendered.
    await page.waitForFunction(() => '__remixRouter' in window, null, { timeout: o.timeoutMs ?? 60_000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const hydratedMs = Date.now() - started;
    const deadline = Date.now() + (o.timeoutMs ?? 30_000);
    // Polled (every 100 ms, until the deadline): no request in flight for `quietFor`.
    while (Date.now() < deadline && (inflight.size > 0 || Date.now() - lastActivity < quietFor))
      await page.waitForTimeout(100);
    const quietMs = Date.now() - started;
    // A deliberate quiet period: what the measure shows is that no shift comes once the page has settled, and no
    // event marks "no shift"; `settleMs` for a late one to show.
    await page.waitForTimeout(o.settleMs ?? 500);
    const shifts = await page.evaluate(() => window.__layoutShifts ?? []);
    return { cls: shifts.reduce((sum, s) => sum + s.value, 0), shifts, hydratedMs, quietMs };
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
    await cdp.detach().catch(() => undefined);
  }
}
