// A real Chromium for screen tests: Debian's /usr/bin/chromium when installed, else @sparticuz/chromium.
// Never downloads a browser.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

async function executablePath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const sparticuz = (await import('@sparticuz/chromium')).default;
  return sparticuz.executablePath();
}

/**
 * Whether the tests run on the npm-packaged Chromium (@sparticuz/chromium, a headless shell). It cannot ask
 * for a permission at all: getUserMedia without a granted permission fails with NotSupportedError there.
 */
export function packagedChromium(): boolean {
  return !process.env.CHROMIUM_PATH && !existsSync('/usr/bin/chromium');
}

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: await executablePath(), headless: true, args: [...FLAGS, ...extraArgs] });
}

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/** `theme`: the portal's theme cookie (what the /theme form sets), so the server renders that theme. */
export async function newContext(
  browser: Browser,
  opts: {
    baseURL: string;
    js?: boolean;
    viewport?: { width: number; height: number };
    cookie?: string;
    theme?: 'dark' | 'light';
  } = {
    baseURL: '',
  },
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: opts.baseURL,
    javaScriptEnabled: opts.js ?? true,
    viewport: opts.viewport ?? DESKTOP,
    locale: 'sv-SE',
    acceptDownloads: true,
  });
  if (opts.cookie) {
    const [name, value] = opts.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: opts.baseURL }]);
  }
  if (opts.theme) await context.addCookies([{ name: 'theme', value: opts.theme, url: opts.baseURL }]);
  const newPage = context.newPage.bind(context);
  context.newPage = async () => retryScreenshot(await newPage());
  return context;
}

/**
 * A page whose screenshot, when Chromium on a loaded machine gives no frame in time ("Protocol error
 * (Page.captureScreenshot): Unable to capture screenshot", upstream: puppeteer/puppeteer#5341), is taken once more:
 * a test's screenshot is a record for people, and its first attempt failed a whole test in a CI pre-run.
 */
function retryScreenshot(page: Page): Page {
  const take = page.screenshot.bind(page);
  page.screenshot = async (options) => {
    try {
      return await take(options);
    } catch (e) {
      if (!String(e).includes('Unable to capture screenshot')) throw e;
      return take(options);
    }
  };
  return page;
}

/**
 * Pastes a text into a field as a user pastes a list (Ctrl+V from the clipboard): one edit, however long the text,
 * with or without JS on the page. Playwright's `fill` types the text instead, which Chromium inserts line by line:
 * 1,000 ICCIDs took 6 s on an idle machine and over 90 s on a loaded one (the CI that timed out, stop 51); pasted,
 * 0.1 s. Checks that the field holds the whole text (a paste past its maxLength would be cut).
 */
export async function pasteInto(field: Locator, text: string): Promise<void> {
  const page = field.page();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await field.fill('');
  await field.focus();
  await page.keyboard.press('ControlOrMeta+V');
  if ((await field.inputValue()) !== text) throw new Error(`pasteInto: the field does not hold the pasted text`);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Puts axe-core (window.axe) into the page. Evaluated by the test driver, not added as a <script>: the portal's
 * Content-Security-Policy rightly blocks an inline script without its nonce.
 */
export async function injectAxe(page: Page): Promise<void> {
  await page.evaluate(axeSource);
}

/** The WCAG 2.1 AA violations axe-core finds on the page as it is now, one line each (injects axe first). */
export async function axeViolations(page: Page): Promise<string[]> {
  await injectAxe(page);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: unknown,
          ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    return axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      // Every node of a violation, as before; of the passes and the rest only one each, which axe then need not
      // collect: a fifth less of its time (the screens' 44-page run: 17.2-17.5 s -> 13.8-13.9 s).
      resultTypes: ['violations'],
    });
  });
  return result.violations.map((v) => `${v.id} [${v.impact}] at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
