// One copy of each server module in the running process. The pages' server build (Remix's, BUILD_DIR/server) holds
// no module of server/, domain/ or the migrations: it imports them at run time (vite.config.ts), so under tsx and in
// the tests they are the modules the server has loaded. `npm start`'s bundle (BUILD_DIR/node/index.js, from
// server/main.ts) holds the pages and the server with one copy of each. Started as `npm start` starts it, the
// portal knows a procedure's refusal in a page by instanceof (app/utils/forms.server.ts): a missing step-up (the
// domain's StepUpRequired, thrown by the procedure layer) comes back to the form, a refused field by field (the
// same message as the REST door's), an unknown SIM is a 404; with two copies each would be a 403 or a 500.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { freePort } from '#tests/helpers/ports.ts';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_FLAG } from '#app/utils/step-up.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { buildDir, buildIsStale, root, serverBundle } from '#scripts/build.js';
import { freshDatabase, usingPostgres } from '#tests/helpers/db.ts';
import { waitForOk } from '#tests/helpers/nginx.ts';
import { linkIn, startSmtp } from '#tests/helpers/smtp.ts';

/** Server-side modules the pages use at run time, each known in built code by one declaration of its own. */
const SERVER_SIDE = [
  { file: 'server/auth/sessions.ts', name: 'isSteppedUp' },
  { file: 'server/db/entities/auth.ts', name: 'Session' },
  { file: 'server/trpc/errors.ts', name: 'httpError' },
  { file: 'server/sims/bulk-downloads.ts', name: 'bulkTemplate' },
  { file: 'server/files/xlsx-read.ts', name: 'readXlsxRows' },
  { file: 'domain/errors.ts', name: 'StepUpRequired' },
  { file: 'domain/errors.ts', name: 'issuesOf' },
  { file: 'prisma-free-migrations/Migration20261122122237_initial.ts', name: 'Migration20261122122237_initial' },
];

/** Declarations of `name` in code, as the source, Rollup and esbuild write them. */
function declarations(code: string, name: string): number {
  const re = new RegExp(`\\bfunction\\s+${name}\\s*\\(|\\bclass\\s+${name}\\b|\\b${name}\\s*=\\s*class\\b`, 'g');
  return code.match(re)?.length ?? 0;
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.join(dir, f));
}

const fresh = existsSync(serverBundle) && !buildIsStale();

describe('the built files', () => {
  beforeAll(() => {
    expect(fresh, 'the build is missing or stale: npm run build').toBe(true);
  });

  it("hold each server-side module once, in npm start's bundle, and none in the pages' build", () => {
    const pages = jsFiles(path.join(buildDir, 'server')).map((f) => readFileSync(f, 'utf8'));
    const bundle = readFileSync(serverBundle, 'utf8');
    for (const { file, name } of SERVER_SIDE) {
      // The marker is a declaration of that module (else the counts below would prove nothing).
      expect(declarations(readFileSync(path.join(root, file), 'utf8'), name), `${name} in ${file}`).toBe(1);
      expect(
        pages.reduce((n, code) => n + declarations(code, name), 0),
        `${name} in ${buildDir}/server`,
      ).toBe(0);
      expect(declarations(bundle, name), `${name} in ${serverBundle}`).toBe(1);
    }
    // The pages' build imports them instead, by the names package.json "imports" resolves.
    const imports = pages.join('\n');
    expect(imports).toMatch(/["']#server\/auth\/sessions\.ts["']/);
    expect(imports).toMatch(/["']#domain\/errors\.ts["']/);
    // And the bundle holds the pages (it loads no build/server at run time): app code is in it once.
    expect(declarations(bundle, 'procedureProblem')).toBe(1);
  });
});

/** React's escaping of a text in the page. */
const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

describe('the portal started as npm start starts it (node scripts/start.js)', { timeout: 240_000 }, () => {
  let child: ChildProcess | undefined;
  let dataDir: string;
  let drop: () => Promise<void> = async () => {};
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let base: string;
  let cookie: string;

  beforeAll(async () => {
    expect(fresh, 'the build is missing or stale: npm run build').toBe(true);
    smtp = await startSmtp();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-one-copy-'));
    const env: NodeJS.ProcessEnv = { ...process.env };
    if (usingPostgres) {
      const db = await freshDatabase();
      drop = db.drop;
      env.DATABASE_URL = (db.target as { url: string }).url;
    } else delete env.DATABASE_URL; // PGlite in DATA_DIR
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [path.join(root, 'scripts/start.js')], {
      cwd: root,
      env: {
        ...env,
        NODE_ENV: 'production',
        PORT: String(port),
        APP_URL: base,
        DATA_DIR: dataDir,
        DEMO_DATA: 'true',
        SESSION_SECRET: 'a-session-secret-of-the-one-copy-test',
        SMTP_URL: smtp.url,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForOk(`${base}/readyz`, child, 180_000);

    // Ella, an owner, signs in by the link in her mail: a full session, not stepped up.
    const post = (p: string, body: unknown) =>
      fetch(base + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify(body),
      });
    expect((await post('/api/trpc/auth.requestLink', { destination: 'ella@demo.test' })).status).toBe(200);
    // Waits for the mail itself (expect.poll is for tests, not hooks).
    for (const until = Date.now() + 20_000; !smtp.to('ella@demo.test').length;) {
      if (Date.now() > until) throw new Error('no login mail to ella@demo.test in 20 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const mail = smtp.to('ella@demo.test')[0];
    const token = new URL(linkIn(mail ? mail.raw : '')).searchParams.get('token');
    const consumed = await post('/api/trpc/auth.consumeLink', { token });
    expect(consumed.status).toBe(200);
    cookie = (consumed.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/=/);
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child?.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await smtp?.close();
    await drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const form = (p: string, values: Record<string, string>) =>
    fetch(base + p, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(values).toString(),
      redirect: 'manual',
    });

  it('a sensitive change without a step-up comes back to its form (StepUpRequired known), not as a 403', async () => {
    const res = await form('/company', { name: 'Ett Exemplar', email: 'ett.exemplar@demo.test', role: 'viewer' });
    // The page again with the message, or back to the page with the typed values (the draft).
    if (res.status === 200) expect(await res.text()).toContain(html(tSecurity.stepUp.required));
    else {
      expect([302, 303], `${res.status} ${res.headers.get('location')}`).toContain(res.status);
      const back = new URL(res.headers.get('location') ?? '', base);
      expect(back.pathname).toBe('/company');
      expect(back.searchParams.get(DRAFT_FLAG)).toBe('1');
    }
  });

  it("a refused field is shown by the form with the REST door's message for the same input", async () => {
    const input = { iccid: '12', dataLimit: 500, callAndSms: false, roaming: false, invoiceLineMark: 'En kopia' };
    const rest = await fetch(`${base}/api/sim`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    expect(rest.status).toBe(400);
    const { issues } = (await rest.json()) as { issues: Array<{ path: string[]; message: string }> };
    const message = issues.find((i) => i.path[0] === 'iccid')?.message;
    expect(message).toBeTruthy();
    const page = await form('/add', {
      iccid: input.iccid,
      dataLimit: String(input.dataLimit),
      invoiceLineMark: input.invoiceLineMark,
      returnTo: '/sims',
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(html(message ?? ''));
  });

  it("an unknown SIM's page is a 404 (NOT_FOUND known), not a 500", async () => {
    const res = await fetch(`${base}/sims/999999`, { headers: { cookie }, redirect: 'manual' });
    await res.arrayBuffer();
    expect(res.status).toBe(404);
  });
});
