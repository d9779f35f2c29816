// Long: one Chromium with the fake camera and its barcodes serves every scanner condition.
// The ICCID camera scanner in a real Chromium with Chromium's own fake camera: a video of a real
// Code 128 (bwip-js, photographed by Chromium) is read into the field; photos are read through
// "Skanna från bild"; the camera conditions show their Swedish messages; quagga2 is not in the initial
// JS of /add; no camera track stays live. Nothing of quagga or the camera is replaced: an init script
// only keeps a list of the streams getUserMedia returned, to check that their tracks end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { injectAxe, launchBrowser, packagedChromium, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { barcodePng, photograph } from '#tests/helpers/barcode.ts';

const ICCID = withCheckDigit(
  `894677${String(process.pid % 1e6).padStart(6, '0')}${String(Date.now() % 1e7).padStart(7, '0')}`,
);
const ICCID_2 = withCheckDigit(
  `894688${String(process.pid % 1e6).padStart(6, '0')}${String(Date.now() % 1e7).padStart(7, '0')}`,
);
/** 20 digits like an ICCID, but the last is not the Luhn check digit of the first 19. */
const WRONG_CHECK = ICCID_2.slice(0, 19) + String((Number(ICCID_2[19]) + 1) % 10);
const SCAN = 'Skanna streckkod';
const CLOSE = 'Stäng skanner';
const FROM_FILE = 'Skanna från bild';
// A string of quagga2's own that survives minification: proves which chunk holds it.
const QUAGGA_MARK = 'Image dimensions do not comply';
const MEMORY_KEY = 'sim-portal:scanner';

// The server only: each part below starts a Chromium with the camera flags it needs.
const portal = useScreens({ browser: false });
let dir: string;
const files = { video: '', shortVideo: '', twoCodes: '', short: '', wrongCheck: '', qr: '' };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'scanner-e2e-'));
  const [iccid, puk, short, wrongCheck, qr] = await Promise.all([
    barcodePng({ bcid: 'code128', text: ICCID }),
    barcodePng({ bcid: 'code128', text: 'PUK 12345678' }),
    barcodePng({ bcid: 'code128', text: ICCID_2.slice(0, 19) }),
    barcodePng({ bcid: 'code128', text: WRONG_CHECK }),
    barcodePng({ bcid: 'qrcode', text: ICCID_2, scale: 5 }),
  ]);
  const painter = await launchBrowser();
  const [frame, shortFrame, twoCodes] = await Promise.all([
    photograph(painter, [iccid], { width: 640, height: 480 }, 'jpeg'),
    photograph(painter, [short], { width: 640, height: 480 }, 'jpeg'),
    photograph(
      painter,
      [puk, await barcodePng({ bcid: 'code128', text: ICCID_2 })],
      { width: 900, height: 600 },
      'png',
    ),
  ]);
  await painter.close();
  // An MJPEG file for Chromium's fake camera is JPEG frames one after another.
  files.video = path.join(dir, 'iccid.mjpeg');
  writeFileSync(files.video, Buffer.concat([frame, frame, frame, frame]));
  files.shortVideo = path.join(dir, 'short.mjpeg');
  writeFileSync(files.shortVideo, Buffer.concat([shortFrame, shortFrame, shortFrame, shortFrame]));
  files.twoCodes = path.join(dir, 'puk-and-iccid.png');
  writeFileSync(files.twoCodes, twoCodes);
  files.short = path.join(dir, 'short.png');
  writeFileSync(files.short, short);
  files.wrongCheck = path.join(dir, 'wrong-check.png');
  writeFileSync(files.wrongCheck, wrongCheck);
  files.qr = path.join(dir, 'qr.png');
  writeFileSync(files.qr, qr);
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Watched = { page: Page; errors: string[] };

async function openAdd(
  browser: Browser,
  opts: { js?: boolean; viewport?: { width: number; height: number }; baseURL?: string; init?: () => void } = {},
): Promise<Watched> {
  const baseURL = opts.baseURL ?? portal.server.url;
  const ctx: BrowserContext = await newContext(browser, {
    baseURL,
    js: opts.js,
    viewport: opts.viewport,
    cookie: await portal.server.sessionCookie('anna@demo.test'),
  });
  await ctx.addInitScript(() => {
    const w = window as unknown as { __streams: MediaStream[] };
    w.__streams = [];
    const proto = globalThis.MediaDevices?.prototype;
    if (!proto) return;
    const real = proto.getUserMedia;
    proto.getUserMedia = async function (this: MediaDevices, c?: MediaStreamConstraints) {
      const stream = await real.call(this, c);
      w.__streams.push(stream);
      return stream;
    };
  });
  if (opts.init) await ctx.addInitScript(opts.init);
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { page, errors };
}

async function gotoAdd(page: Page) {
  await page.goto('/add');
  await page.getByRole('button', { name: SCAN }).waitFor(); // shown once hydrated
}

const liveTracks = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __streams: MediaStream[] }).__streams
        .flatMap((s) => s.getTracks())
        .filter((t) => t.readyState === 'live').length,
  );

async function waitNoLiveTracks(page: Page) {
  await page.waitForFunction(() =>
    (window as unknown as { __streams: MediaStream[] }).__streams
      .flatMap((s) => s.getTracks())
      .every((t) => t.readyState === 'ended'),
  );
  expect(await liveTracks(page)).toBe(0);
}

/** WCAG 2.1 AA problems of the page as it is now (axe-core). */
async function axeProblems(page: Page): Promise<string[]> {
  await injectAxe(page);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: unknown,
          ) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return result.violations.map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const memory = (page: Page) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? 'null'), MEMORY_KEY);
const iccidValue = (page: Page) => page.getByLabel('ICCID').inputValue();
const scanning = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'Rikta kameran mot ICCID-streckkoden' }).waitFor();

describe('scanner with a camera that films an ICCID barcode', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${files.video}`,
    ]);
  });
  afterAll(async () => browser?.close());

  it(
    'keeps quagga2 out of the initial JS, loads it on the press, reads the ICCID, closes and activates',
    { timeout: 150_000 },
    async () => {
      const { page } = await openAdd(browser);
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.endsWith('.js')) scripts.push(r.url());
      });
      await gotoAdd(page);
      await page.waitForLoadState('networkidle');
      const initial = [...scripts];
      expect(initial.length).toBeGreaterThan(2);
      expect(initial.filter((u) => /quagga|scanner/i.test(u))).toEqual([]);
      const bodies = await Promise.all(initial.map((u) => fetch(u).then((r) => r.text())));
      expect(bodies.filter((b) => b.includes(QUAGGA_MARK))).toHaveLength(0);

      const quaggaChunk = page.waitForResponse((r) => /quagga[^/]*\.js$/.test(new URL(r.url()).pathname));
      await page.getByRole('button', { name: SCAN }).click();
      expect(await (await quaggaChunk).text()).toContain(QUAGGA_MARK);

      // Decoding a live picture takes a while on a loaded machine (it once took more than 20 s in CI).
      await page.waitForFunction((v) => (document.getElementById('iccid') as HTMLInputElement).value === v, ICCID, {
        timeout: 60_000,
      });
      expect(await iccidValue(page)).toBe(ICCID);
      // The scanner closed itself, the camera is off, and the user goes on with the next field.
      expect(await page.locator('#scanner').count()).toBe(0);
      expect(await page.getByRole('button', { name: SCAN }).getAttribute('aria-expanded')).toBe('false');
      await page.waitForFunction(() => document.activeElement?.id === 'invoiceLineMark');
      expect(
        await page.evaluate(
          () =>
            document.activeElement === document.querySelector<HTMLLabelElement>('label[for=invoiceLineMark]')?.control,
        ),
      ).toBe(true);
      expect(await page.getByText(`ICCID ${ICCID} är inläst från streckkoden.`).isVisible()).toBe(true);
      await waitNoLiveTracks(page);
      const remembered = await memory(page);
      expect(remembered.permissionGranted).toBe(true);
      expect(remembered.cameraId).toMatch(/\S/);

      await page.getByLabel('Fakturamärkning').fill('Skannad');
      await page.getByLabel('Datamängd').selectOption({ label: '5 GB' });
      await page.getByRole('button', { name: 'Aktivera' }).click();
      await page.waitForURL((u) => u.pathname === '/sims');
      const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { iccid: ICCID });
      expect(sim.invoiceLineMark).toBe('Skannad');
      await page.context().close();
    },
  );
});

describe('scanner with a camera that films a barcode that is not an ICCID', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${files.shortVideo}`,
    ]);
  });
  afterAll(async () => browser?.close());

  it('ignores the 19-digit code, keeps scanning and shows a hint after repeated rejects', async () => {
    const { page } = await openAdd(browser);
    await gotoAdd(page);
    await page.getByRole('button', { name: SCAN }).click();
    await scanning(page);
    await page.getByText('Den streckkoden är inte ett ICCID-nummer (20 siffror).').waitFor({ timeout: 20_000 });
    expect(await iccidValue(page)).toBe('');
    expect(await page.locator('#scanner').count()).toBe(1);
    expect(await page.getByRole('status').filter({ hasText: 'Rikta kameran mot ICCID-streckkoden' }).count()).toBe(1);
    expect(await liveTracks(page)).toBe(1);
    await page.getByRole('button', { name: CLOSE }).click();
    await waitNoLiveTracks(page);
    expect(await iccidValue(page)).toBe('');
    await page.context().close();
  });
});

describe('scanner controls with a camera that sees no barcode (two fake cameras)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser([
      '--use-fake-device-for-media-stream=device-count=2',
      '--use-fake-ui-for-media-stream',
    ]);
  });
  afterAll(async () => browser?.close());

  it('pauses, resumes, switches and remembers the camera, stops on a hidden tab and reads photos when stopped', async () => {
    const { page, errors } = await openAdd(browser);
    await gotoAdd(page);
    await page.getByRole('button', { name: SCAN }).click();
    await scanning(page);
    expect(await page.getByRole('button', { name: CLOSE }).getAttribute('aria-expanded')).toBe('true');
    expect(await liveTracks(page)).toBe(1);
    const file = page.getByLabel(FROM_FILE);
    // A file scan is refused while the camera scans or is paused: the control is disabled.
    expect(await file.isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Pausa' }).click();
    await page.getByText('Skannern är pausad.').waitFor();
    expect(await file.isDisabled()).toBe(true);
    expect(await liveTracks(page)).toBe(1);
    await page.getByRole('button', { name: 'Fortsätt skanna' }).click();
    await scanning(page);

    // Two cameras: a select; picking the other one restarts on it and is remembered.
    const select = page.getByLabel('Kamera', { exact: true });
    await select.waitFor();
    const options = await select
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(options).toHaveLength(2);
    const current = await select.inputValue();
    const other = options.find((o) => o !== current)!;
    await select.selectOption(other);
    await page.waitForFunction(
      (id) => JSON.parse(localStorage.getItem('sim-portal:scanner') ?? '{}').cameraId === id,
      other,
    );
    await scanning(page);
    await page.waitForFunction(
      () =>
        (window as unknown as { __streams: MediaStream[] }).__streams
          .flatMap((s) => s.getTracks())
          .filter((t) => t.readyState === 'live').length === 1,
    );
    const track = await page.evaluate(() => {
      const live = (window as unknown as { __streams: MediaStream[] }).__streams
        .flatMap((s) => s.getTracks())
        .find((t) => t.readyState === 'live');
      return live?.getSettings().deviceId;
    });
    expect(track).toBe(other);

    // Headless Chromium keeps every tab visible, so the test tells the page its tab was hidden, then shown.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitNoLiveTracks(page);
    await page.getByRole('status').filter({ hasText: 'Kameran är avstängd.' }).waitFor();
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await scanning(page);
    expect(await liveTracks(page)).toBe(1);

    await page.getByRole('button', { name: 'Stäng av kameran' }).click();
    await waitNoLiveTracks(page);
    // Said once, in the status line (not also over the dark picture).
    await page.getByRole('status').filter({ hasText: 'Kameran är avstängd.' }).waitFor();
    expect(await page.getByText('Kameran är avstängd.', { exact: true }).count()).toBe(1);
    expect(await file.isEnabled()).toBe(true);
    expect(await file.getAttribute('accept')).toBe('image/*');
    expect(await file.getAttribute('capture')).not.toBeNull();

    await file.setInputFiles(files.short);
    await page
      .getByRole('alert')
      .filter({ hasText: 'Streckkoden i bilden är inte ett giltigt ICCID-nummer (20 siffror).' })
      .waitFor();
    // 20 digits with a wrong check digit: the message names the check digit, not the length.
    await file.setInputFiles(files.wrongCheck);
    await page.getByRole('alert').filter({ hasText: 'har 20 siffror men kontrollsiffran stämmer inte' }).waitFor();
    expect(await page.getByText('(20 siffror)').count()).toBe(0);
    await file.setInputFiles(files.qr);
    await page.getByRole('alert').filter({ hasText: 'Ingen streckkod hittades i bilden.' }).waitFor();
    expect(errors.some((e) => e.includes('Ingen streckkod hittades i bilden'))).toBe(true);
    expect(await iccidValue(page)).toBe('');

    // A photo with two Code 128 barcodes: the ICCID is taken, the other ignored.
    await file.setInputFiles(files.twoCodes);
    await page.waitForFunction((v) => (document.getElementById('iccid') as HTMLInputElement).value === v, ICCID_2, {
      timeout: 60_000,
    });
    expect(await page.locator('#scanner').count()).toBe(0);
    await page.waitForFunction(() => document.activeElement?.id === 'invoiceLineMark');

    // Opening again uses the remembered camera.
    await page.getByRole('button', { name: SCAN }).click();
    await scanning(page);
    expect(await page.getByLabel('Kamera', { exact: true }).inputValue()).toBe(other);
    expect(
      await page.evaluate(
        () =>
          (window as unknown as { __streams: MediaStream[] }).__streams.at(-1)?.getVideoTracks()[0]?.getSettings()
            .deviceId,
      ),
    ).toBe(other);
    await page.getByRole('button', { name: CLOSE }).click();
    expect(await page.locator('#scanner').count()).toBe(0);
    await waitNoLiveTracks(page);
    // Manual entry is untouched by all this.
    expect(await iccidValue(page)).toBe(ICCID_2);
    await page.context().close();
  }, 240_000); // photo decoding in the browser tries up to three sizes (and passes), slow on a loaded 2-core machine

  it('turns the camera off when the user navigates away with the scanner open', async () => {
    const { page } = await openAdd(browser);
    await page.goto('/');
    await page.getByRole('link', { name: 'Aktivera SIM-kort' }).click();
    await page.waitForURL('**/add');
    await page.getByRole('button', { name: SCAN }).click();
    await scanning(page);
    expect(await liveTracks(page)).toBe(1);
    await page.getByRole('link', { name: '< Backa' }).click();
    await page.waitForURL((u) => u.pathname !== '/add');
    await waitNoLiveTracks(page);
    await page.context().close();
  });

  it('draws a square scan box of 85% of the smaller video side, fits 390 px and passes axe (WCAG 2.1 AA)', async () => {
    const { page } = await openAdd(browser, { viewport: MOBILE });
    await gotoAdd(page);
    await page.getByRole('button', { name: SCAN }).click();
    await scanning(page);
    const [video, box] = await Promise.all([
      page.locator('.scanner-video video').boundingBox(),
      page.locator('.scanner-box').boundingBox(),
    ]);
    expect(video && box).toBeTruthy();
    const side = Math.min(video!.width, video!.height) * 0.85;
    expect(Math.abs(box!.width - side)).toBeLessThan(2);
    expect(Math.abs(box!.height - side)).toBeLessThan(2);
    expect(Math.abs(box!.x + box!.width / 2 - (video!.x + video!.width / 2))).toBeLessThan(2);
    expect(Math.abs(box!.y + box!.height / 2 - (video!.y + video!.height / 2))).toBeLessThan(2);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await page.screenshot({ path: 'test-results/scanner-390.png', fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Stäng av kameran' }).click();
    await page.getByRole('status').filter({ hasText: 'Kameran är avstängd.' }).waitFor();
    await page.locator('#scanner').screenshot({ path: 'test-results/scanner-stopped-390.png' });
    await page.getByLabel(FROM_FILE).setInputFiles(files.qr);
    await page.getByRole('alert').filter({ hasText: 'Ingen streckkod hittades i bilden.' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await page.getByRole('button', { name: CLOSE }).click();
    await waitNoLiveTracks(page);
    await page.context().close();
  });
});

describe('scanner conditions', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser([
      '--use-fake-device-for-media-stream',
      '--deny-permission-prompts',
      '--host-resolver-rules=MAP sim-portal.test 127.0.0.1',
    ]);
  });
  afterAll(async () => browser?.close());

  async function openScanner(w: Watched) {
    await gotoAdd(w.page);
    await w.page.getByRole('button', { name: SCAN }).click();
  }

  it('says so when camera permission is denied, and manual entry still works', async () => {
    // The browser refuses the camera (--deny-permission-prompts, as if the user clicked "Block"). The
    // npm-packaged Chromium cannot prompt at all, so there the refusal the browser would give stands in.
    const w = await openAdd(browser, {
      init: packagedChromium()
        ? () => {
            MediaDevices.prototype.getUserMedia = () =>
              Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
          }
        : undefined,
    });
    await w.page.goto('/add');
    await w.page.evaluate(
      (k) => localStorage.setItem(k, JSON.stringify({ permissionGranted: true, cameraId: 'gone' })),
      MEMORY_KEY,
    );
    await openScanner(w);
    await w.page.getByRole('alert').filter({ hasText: 'Webbsidan har inte fått använda kameran.' }).waitFor();
    expect(w.errors.some((e) => e.includes('Webbsidan har inte fått använda kameran'))).toBe(true);
    expect((await memory(w.page)).permissionGranted).toBe(false);
    expect(await w.page.getByLabel(FROM_FILE).isEnabled()).toBe(true);
    await w.page.getByLabel('ICCID').fill(ICCID_2);
    expect(await iccidValue(w.page)).toBe(ICCID_2);
    await waitNoLiveTracks(w.page);
    await w.page.context().close();
  });

  it('says the camera needs a secure context on plain http to another host', async () => {
    const port = new URL(portal.server.url).port;
    const w = await openAdd(browser, { baseURL: `http://sim-portal.test:${port}` });
    await openScanner(w);
    await w.page
      .getByRole('alert')
      .filter({ hasText: 'Kameran kan bara användas över en säker anslutning (https eller localhost).' })
      .waitFor();
    expect(await w.page.evaluate(() => window.isSecureContext)).toBe(false);
    expect(w.errors.some((e) => e.includes('säker anslutning'))).toBe(true);
    expect(await w.page.getByLabel(FROM_FILE).isEnabled()).toBe(true);
    await w.page.context().close();
  });

  it('says so when the browser cannot stream from a camera at all', async () => {
    // A browser without the media API (an old or locked-down one): the API is absent from the page.
    const w = await openAdd(browser, {
      init: () =>
        Object.defineProperty(Navigator.prototype, 'mediaDevices', { configurable: true, get: () => undefined }),
    });
    await openScanner(w);
    await w.page.getByRole('alert').filter({ hasText: 'Webbläsaren kan inte strömma bild från kameran.' }).waitFor();
    expect(w.errors.some((e) => e.includes('strömma bild från kameran'))).toBe(true);
    await w.page.context().close();
  });
});

describe('scanner without JavaScript', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('shows no scan button and keeps the plain form', async () => {
    const { page } = await openAdd(browser, { js: false });
    await page.goto('/add');
    expect(await page.getByLabel('ICCID').isVisible()).toBe(true);
    // The browser's own message for a wrong format comes with this Swedish hint.
    expect(await page.getByLabel('ICCID').getAttribute('title')).toBe(
      'ICCID: 20 siffror (mellanslag mellan siffergrupperna går bra).',
    );
    expect(await page.getByRole('button', { name: 'Aktivera' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: SCAN }).count()).toBe(0);
    expect(await page.getByText(FROM_FILE).count()).toBe(0);
    await page.context().close();
  });
});
