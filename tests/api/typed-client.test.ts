// A typed client made from the published document, as an integrator would make one: openapi-typescript turns
// GET /api/openapi.json into TypeScript types, the program in tests/fixtures/typed-client/ uses them through
// openapi-fetch with an API key, the TypeScript compiler checks it (any error fails), and it runs against the
// real server: activate a SIM, list it, edit it, read a typed 400, deactivate it. A second program, reading a
// field the document does not have, must not type-check.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
const newIccid = iccidFactory('8946499');
const fixtures = path.resolve('tests/fixtures/typed-client');

// In the project's node_modules/.cache, not the run's TMPDIR: the programs import openapi-fetch, found from there
// by walking up to node_modules, as in an integrator's own project.
let dir: string;
beforeAll(async () => {
  mkdirSync('node_modules/.cache', { recursive: true });
  dir = mkdtempSync(path.resolve('node_modules/.cache/typed-client-'));
  const document = await (await fetch(`${portal.server.url}/api/openapi.json`)).json();
  writeFileSync(path.join(dir, 'api.ts'), astToString(await openapiTS(document)));
  for (const file of ['program.mts', 'wrong-field.mts']) copyFileSync(path.join(fixtures, file), path.join(dir, file));
}, 60_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The compiler's errors for one file (strict, as an integrator's project would be), one line each. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([path.join(dir, file)], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start!).line + 1}`
      : '';
    return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

describe('a typed client generated from /api/openapi.json', () => {
  it('type-checks the program with the generated types', () => {
    expect(typeErrors('program.mts')).toEqual([]);
  }, 60_000);

  it('refuses a program that reads a field the document does not have', () => {
    const errors = typeErrors('wrong-field.mts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/wrong-field\.mts:\d+ TS2339: Property 'simId' does not exist/);
  }, 60_000);

  it('runs against the server with an API key: activate, list, edit, a typed 400, deactivate', async () => {
    const owner = await portal.server.sessionCookie('ella@demo.test');
    const created = await fetch(`${portal.server.url}/api/company/apiKeys`, {
      method: 'POST',
      headers: { cookie: owner, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Typad klient', scope: 'write' }),
    });
    expect(created.status).toBe(200);
    const { key } = (await created.json()) as { key: string };

    const { run } = (await import(pathToFileURL(path.join(dir, 'program.mts')).href)) as {
      run: (baseUrl: string, key: string, iccid: string) => Promise<Record<string, unknown>>;
    };
    const iccid = newIccid();
    const result = await run(`${portal.server.url}/api`, key, iccid);
    expect(result).toEqual({
      id: expect.any(Number),
      listed: { iccid, status: 'active', mark: 'Typad klient' },
      changed: true,
      afterEdit: { mark: 'Ändrad', note: 'via openapi-fetch', roaming: true },
      refused: { status: 400, error: expect.stringMatching(/\S/), fields: expect.arrayContaining(['iccid']) },
      deactivated: true,
      // A deactivated SIM is no longer the company's to read.
      afterDeactivation: { status: 404, error: expect.stringMatching(/\S/) },
    });
  }, 60_000);
});
