// A logged error's stack names the TypeScript file and line in a bundle built as scripts/build.js builds the server
// (esbuild, ESM, a map beside it without the sources' text), with Node's own source maps off; the map is let go a
// minute after its last use; a stack of another file, or a bundle without its map, is left as it is.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stackMapper } from '#server/log-stacks.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sim-log-stacks-'));
const source = path.join(dir, 'src', 'fails.ts');
const bundle = path.join(dir, 'out', 'index.js');
let stack = '';

beforeAll(async () => {
  writeFileSync(path.join(dir, 'pad.ts'), 'export const pad = (n: number): string => " ".repeat(n);\n');
  mkdirSync(path.dirname(source), { recursive: true });
  writeFileSync(
    source,
    [
      "import { pad } from '../pad.ts';",
      'type Sim = { iccid: string };',
      '',
      'export function fail(sim: Sim): never {',
      '  const label: string = pad(2) + sim.iccid;',
      '  throw new Error(`no such SIM: ${label}`);',
      '}',
      '',
    ].join('\n'),
  );
  await build({
    entryPoints: [source],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'silent',
  });
  // The bundle run by plain Node, as `npm start` runs the server (not through Vite, which maps stacks itself).
  const run = `import(${JSON.stringify(pathToFileURL(bundle).href)}).then((m) => {
    try { m.fail({ iccid: '8946' }); } catch (err) { process.stdout.write(err.stack); }
  });`;
  stack = execFileSync(process.execPath, ['--input-type=module', '-e', run], { encoding: 'utf8' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stacks in the logs', () => {
  it('names the TypeScript file, line and column of a frame in the bundle', () => {
    expect(stack).toContain(`${pathToFileURL(bundle).href}:`); // as Node writes it, with its maps off
    const mapped = stackMapper(bundle)(stack);
    expect(mapped).toContain('Error: no such SIM:   8946');
    expect(mapped).toContain(`fail (${source}:6:9)`); // the throw in fails.ts
    expect(mapped).not.toContain(bundle);
  });

  it('leaves other stacks, and a bundle without its map, as they are', () => {
    const other = 'Error: x\n    at f (/srv/app/other.js:1:2)';
    expect(stackMapper(bundle)(other)).toBe(other);
    expect(stackMapper(path.join(dir, 'out', 'nothing.js'))(stack)).toBe(stack);
  });

  it('keeps the map a minute after its last use, then lets it go', () => {
    vi.useFakeTimers();
    try {
      const map = stackMapper(bundle, 60_000);
      expect(map.held()).toBe(false);
      map(stack);
      expect(map.held()).toBe(true);
      vi.advanceTimersByTime(59_000);
      map(stack); // used again: another minute
      vi.advanceTimersByTime(59_000);
      expect(map.held()).toBe(true);
      vi.advanceTimersByTime(1_000);
      expect(map.held()).toBe(false);
      expect(map(stack)).toContain(`${source}:6:9`); // read again when needed
    } finally {
      vi.useRealTimers();
    }
  });
});
