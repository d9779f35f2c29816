// npm run screens: screenshots of the main pages into docs/screens/, to look at and to show in the README. Starts the
// production build (BUILD_DIR, default build-screens; built when older than the sources) on a fresh database with the
// demo data, signs in as a member, an owner and a super admin as the tests do (a session row, no e-mail), and
// takes each page at 1280x800 and 390x844 in the dark and the light theme: <page>-<width>-<theme>.png.
//
//   SCREENS_ONLY=sims,add   only these pages
import { mkdirSync } from 'node:fs';
import path from 'node:path';

process.env.BUILD_DIR ??= 'build-screens';
process.env.NODE_ENV ??= 'production';

type As = 'anon' | 'member' | 'owner' | 'admin' | 'acting';
const EMAIL: Record<Exclude<As, 'anon' | 'acting'>, string> = {
  member: 'anna@demo.se',
  owner: 'ella@demo.se',
  admin: 'admin@demo.se',
};
/** The main pages: one file name each, the path, who looks, and an action before the picture. */
const PAGES: Array<{ name: string; path: string; as: As; open?: string }> = [
  { name: 'login', path: '/login', as: 'anon' },
  { name: 'home', path: '/', as: 'member' },
  { name: 'sims', path: '/sims', as: 'member' },
  { name: 'add', path: '/add', as: 'member' },
  { name: 'company', path: '/company', as: 'owner' },
  { name: 'admin', path: '/admin/companies', as: 'admin' },
  { name: 'security', path: '/security', as: 'member' },
  // A super admin acting as Demo AB: the header's acting line.
  { name: 'acting', path: '/company', as: 'acting' },
  // The phone's folded sections, opened (a <details>, no JavaScript needed).
  { name: 'menu', path: '/sims', as: 'owner', open: '.appnav-narrow summary' },
];
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const THEMES = ['dark', 'light'] as const;

async function main() {
  const { build, buildIsStale, root } = await import('#scripts/build.js');
  if (buildIsStale()) build();
  const { startTestServer } = await import('#tests/helpers/server.ts');
  const { launchBrowser, newContext } = await import('#tests/helpers/browser.ts');
  const out = path.join(root, 'docs/screens');
  mkdirSync(out, { recursive: true });
  const only = process.env.SCREENS_ONLY?.split(',');
  const [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  try {
    const cookies = new Map<As, string | undefined>([['anon', undefined]]);
    for (const [as, email] of Object.entries(EMAIL)) cookies.set(as as As, await server.sessionCookie(email));
    const { Company } = await import('#server/db/entities.ts');
    const demo = await server.services.orm.em.fork().findOneOrFail(Company, { customerNumber: '100001' });
    cookies.set('acting', await server.sessionCookie(EMAIL.admin, { actingCompanyId: demo.id }));
    for (const page of PAGES.filter((p) => !only || only.includes(p.name))) {
      for (const viewport of SIZES) {
        if (page.open && viewport.width > 700) continue;
        for (const theme of THEMES) {
          const ctx = await newContext(browser, { baseURL: server.url, viewport, cookie: cookies.get(page.as) });
          await ctx.addCookies([{ name: 'theme', value: theme, url: server.url }]);
          const tab = await ctx.newPage();
          await tab.goto(page.path, { timeout: 60_000 });
          await tab.waitForFunction(() => '__remixRouter' in window, null, { timeout: 60_000 });
          if (page.open) await tab.click(page.open, { timeout: 10_000 });
          const file = path.join(out, `${page.name}-${viewport.width}-${theme}.png`);
          await tab.screenshot({ path: file, timeout: 30_000 });
          console.log(path.relative(root, file));
          await ctx.close();
        }
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
