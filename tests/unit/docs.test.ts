// The docs are checked: README.md and every docs/**/*.md name only what exists. Every `npm run X` (and `npm test`,
// `npm start`) is a script of package.json, every `npx X` an installed tool, every repository path in code (inline
// or fenced) or in a link exists (a glob such as `app/**/*.server.ts` must match something, a placeholder such as
// `<area>` stands for any one name), every relative link resolves, to a heading too when it names one, and a bare
// `NAME.md` in code is a file of the repository. A doc that names a file or a command another change removed fails
// here, naming the doc, the line and what is missing. A file that is gone (a decision's history tells of it) is
// named in plain text, not in code: code names what a reader can open.
import { existsSync, globSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = ['README.md', ...globSync('docs/**/*.md', { cwd: ROOT })].sort();
const SCRIPTS = new Set(
  Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts),
);

/** The repository's top folders a path in the docs starts with, and the package.json `imports` aliases. */
const FOLDERS = [
  'app',
  'server',
  'domain',
  'tests',
  'docs',
  'scripts',
  'bench',
  'deploy',
  'prisma-free-migrations',
  'patches',
  'public',
  'eslint-rules',
  '.ci',
];
const ALIASES: Record<string, string> = {
  '#app/': 'app/',
  '#domain/': 'domain/',
  '#server/': 'server/',
  '#tests/': 'tests/',
  '#bench/': 'bench/',
  '#migrations/': 'prisma-free-migrations/',
  '#scripts/': 'scripts/',
};
/** npm's own commands (not scripts) that the docs may name; `npm test`, `npm start` and the like are scripts. */
const NPM_COMMANDS = new Set(['install', 'i', 'ci', 'exec', 'ls', 'outdated', 'audit', 'update', 'pack', 'view']);
const NPM_SCRIPT_ALIASES = new Set(['test', 'start', 'stop', 'restart']);

type Found = { doc: string; line: number; what: string };

/** The text in code (inline spans and fenced blocks) and the link targets of a markdown file, with their lines. */
function partsOf(doc: string) {
  const code: Found[] = [];
  const prose: Found[] = [];
  const links: Found[] = [];
  const lines = readFileSync(path.join(ROOT, doc), 'utf8').split('\n');
  let fenced = false;
  lines.forEach((text, i) => {
    const line = i + 1;
    if (/^\s*(```|~~~)/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced) {
      code.push({ doc, line, what: text });
      return;
    }
    // An indented block (four spaces, after a blank line or another such line) is code too.
    if (/^ {4}\S/.test(text) && (i === 0 || /^\s*$/.test(lines[i - 1]!) || /^ {4}/.test(lines[i - 1]!)))
      code.push({ doc, line, what: text });
    for (const m of text.matchAll(/(`+)(.+?)\1/g)) code.push({ doc, line, what: m[2]! });
    const outside = text.replace(/(`+)(.+?)\1/g, '');
    prose.push({ doc, line, what: outside });
    for (const m of outside.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ doc, line, what: m[1]! });
    for (const m of outside.matchAll(/\b(?:src|href)="([^"]+)"/g)) links.push({ doc, line, what: m[1]! });
  });
  return { code, prose, links };
}

const parts = DOCS.map(partsOf);
const code = parts.flatMap((p) => p.code);
const prose = parts.flatMap((p) => p.prose);
const links = parts.flatMap((p) => p.links);
const where = (f: Found) => `${f.doc}:${f.line}`;

/** The anchors of a markdown file's headings, as GitHub makes them. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
}

/** Whether a repository path (maybe a glob, maybe with `<placeholders>`) names something that exists. */
function exists(repoPath: string): boolean {
  const pattern = repoPath
    .replace(/<[^<>/]+>/g, '*')
    .replace(/(^|\/)(\.\.\.|…)(?=\/|$)/g, '$1**')
    .replace(/\/$/, '');
  if (!/[*?[{]/.test(pattern)) return existsSync(path.join(ROOT, pattern));
  return globSync(pattern, { cwd: ROOT }).length > 0;
}

/** The repository paths in a piece of code: tokens starting with a top folder or an `imports` alias. */
function pathsIn(text: string): string[] {
  const starts = [...FOLDERS.map((f) => `${f.replace('.', '\\.')}/`), ...Object.keys(ALIASES)].join('|');
  const found: string[] = [];
  for (const m of text.matchAll(new RegExp(`(?<![\\w./@#<>*-])(?:\\./)?(?:${starts})[^\\s\`'"(),;|]*`, 'g'))) {
    let p = m[0].replace(/^\.\//, '');
    for (const [alias, folder] of Object.entries(ALIASES)) if (p.startsWith(alias)) p = folder + p.slice(alias.length);
    // Punctuation after the path, a line number, an anchor or a query.
    p = p
      .replace(/[.,:;!?]+$/, '')
      .replace(/:\d+(:\d+)?$/, '')
      .replace(/[#?].*$/, '');
    if (p.endsWith(']') && !p.includes('[')) p = p.slice(0, -1);
    found.push(p);
  }
  return found;
}

describe('the docs name only what exists', () => {
  it('finds the docs, their code and their links', () => {
    expect(DOCS).toContain('README.md');
    expect(DOCS).toContain('docs/testing.md');
    expect(code.length).toBeGreaterThan(500);
    expect(links.length).toBeGreaterThan(50);
  });

  it('every npm command is a script of package.json (or npm’s own), every npx tool is installed', () => {
    const missing: string[] = [];
    for (const f of code) {
      // `npm run` alone speaks of every script; `npm run X` names one.
      for (const m of f.what.matchAll(
        /(?:^|[\s;&|(])npm\s+(?:-\S+\s+)*(?:run(?:-script)?\b(?:\s+(?:-\S+\s+)*([\w:.-]+))?|([\w:.-]+))/g,
      )) {
        const [, script, command] = m;
        if (script !== undefined && !SCRIPTS.has(script)) missing.push(`${where(f)}: npm run ${script}`);
        if (
          command !== undefined &&
          !(NPM_SCRIPT_ALIASES.has(command) ? SCRIPTS.has(command) : NPM_COMMANDS.has(command))
        )
          missing.push(`${where(f)}: npm ${command}`);
      }
      for (const m of f.what.matchAll(/(?:^|[\s;&|(])npx\s+(?:-\S+\s+)*([@\w./-]+)/g)) {
        const tool = m[1]!;
        const installed =
          existsSync(path.join(ROOT, 'node_modules/.bin', tool)) ||
          existsSync(path.join(ROOT, 'node_modules', tool, 'package.json'));
        if (!installed) missing.push(`${where(f)}: npx ${tool}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every repository path they name in code exists (a glob matches something)', () => {
    const missing: string[] = [];
    for (const f of code) for (const p of pathsIn(f.what)) if (!exists(p)) missing.push(`${where(f)}: ${p}`);
    expect(missing).toEqual([]);
  });

  it('every markdown file named bare (NAME.md, in code or in prose) is in the repository', () => {
    const missing: string[] = [];
    for (const f of [...code, ...prose])
      for (const m of f.what.matchAll(/(?<![\w./-])([\w-]+\.md)\b(?![\w/])/g)) {
        const name = m[1]!;
        const beside = [path.dirname(f.doc), '.', 'docs', 'docs/decisions'];
        if (!beside.some((dir) => existsSync(path.join(ROOT, dir, name)))) missing.push(`${where(f)}: ${name}`);
      }
    expect(missing).toEqual([]);
  });

  it('every relative link resolves, to its heading when it names one', () => {
    const broken: string[] = [];
    for (const f of links) {
      if (/^([a-z][\w+.-]*:|\/\/)/i.test(f.what)) continue; // https:, mailto: and the like
      if (f.what.startsWith('/')) continue; // a path of the running portal (/api/docs), not of the repository
      const [target, anchor] = f.what.split('#') as [string, string | undefined];
      const file = target ? path.resolve(ROOT, path.dirname(f.doc), decodeURI(target)) : path.join(ROOT, f.doc);
      if (!file.startsWith(ROOT + path.sep) || !existsSync(file)) {
        broken.push(`${where(f)}: ${f.what}`);
        continue;
      }
      if (anchor && file.endsWith('.md') && statSync(file).isFile() && !anchorsOf(file).has(anchor))
        broken.push(`${where(f)}: ${f.what} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});
