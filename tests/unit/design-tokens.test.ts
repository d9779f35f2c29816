// The colour tokens of app/styles/tokens.css, read from the stylesheet itself for both themes, keep WCAG 2.1 AA:
// text 4.5:1 on every background it is shown on (1.4.3), the boundaries of controls and the focus ring 3:1 against
// what is next to them (1.4.11), and each status colour's text 4.5:1 on its own background.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('../../app/styles/tokens.css', import.meta.url), 'utf8');

type Tokens = Record<string, string>;

/** The custom properties of the first rule with exactly this selector. */
function block(source: string, selector: string): Tokens {
  const start = source.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no rule ${selector}`);
  const body = source.slice(start + selector.length + 2, source.indexOf('\n}', start));
  const tokens: Tokens = {};
  for (const m of body.matchAll(/(--[\w-]+):\s*([^;]+);/g)) tokens[m[1]!] = m[2]!.trim();
  return tokens;
}

/** Both themes: dark is the :root block; light is :root[data-theme='light'] over it. */
function themes(source: string): { dark: Tokens; light: Tokens; lightOwn: Tokens } {
  const dark = block(source, ':root');
  const lightOwn = block(source, ":root[data-theme='light']");
  return { dark, light: { ...dark, ...lightOwn }, lightOwn };
}

function rgb(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new Error(`not an opaque hex colour: ${hex}`);
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2.1 relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const BACKGROUNDS = ['--bg', '--surface', '--surface-2'];
const STATUSES = ['ok', 'warning', 'error', 'info', 'neutral'];

/** [foreground, background, minimum ratio, what it is] for every pair the stylesheet puts together. */
const PAIRS: Array<[string, string, number, string]> = [
  ...['--text', '--muted', '--primary', '--error-text'].flatMap((fg) =>
    BACKGROUNDS.map((bg): [string, string, number, string] => [fg, bg, 4.5, 'text']),
  ),
  ['--primary-text', '--primary', 4.5, 'text on a primary button'],
  ['--destructive-text', '--destructive', 4.5, 'text on a destructive button'],
  ...['--control-border', '--focus'].flatMap((fg) =>
    BACKGROUNDS.map((bg): [string, string, number, string] => [fg, bg, 3, 'boundary']),
  ),
  // A filled button has no border of its own: its fill is its boundary.
  ...['--primary', '--destructive'].flatMap((fg) =>
    ['--bg', '--surface'].map((bg): [string, string, number, string] => [fg, bg, 3, 'button fill']),
  ),
  ['--destructive', '--bg', 3, 'boundary of a field in error'],
  ...STATUSES.map((s): [string, string, number, string] => [
    `--${s === 'error' ? 'error-fg' : `${s}-text`}`,
    `--${s}-bg`,
    4.5,
    `${s} status`,
  ]),
];

/** The pairs under their minimum, one line each ("" when none). */
function failures(tokens: Tokens): string[] {
  return PAIRS.flatMap(([fg, bg, min, what]) => {
    const ratio = contrast(tokens[fg]!, tokens[bg]!);
    return ratio >= min
      ? []
      : [`${what}: ${fg} ${tokens[fg]} on ${bg} ${tokens[bg]} is ${ratio.toFixed(2)}:1 < ${min}`];
  });
}

describe('design tokens', () => {
  const { dark, light, lightOwn } = themes(css);

  it('the formula gives the known ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrast('#fff', '#fff')).toBe(1);
  });

  it('each theme names every colour of the pairs itself (the light block overrides them all)', () => {
    const colours = [...new Set(PAIRS.flatMap(([fg, bg]) => [fg, bg]))];
    for (const name of colours) {
      expect(dark[name], `dark ${name}`).toMatch(/^#[0-9a-f]{3,6}$/i);
      expect(lightOwn[name], `light ${name}`).toMatch(/^#[0-9a-f]{3,6}$/i);
    }
  });

  it.each([
    ['dark', dark],
    ['light', light],
  ])('the %s theme keeps 4.5:1 for text and 3:1 for boundaries', (_theme, tokens) => {
    expect(failures(tokens)).toEqual([]);
  });

  it('fails when a token is changed to a low-contrast value', () => {
    // The input border as it was (1.47:1 on the dark background), a muted text too dim, a status text near its background.
    const bad = themes(
      css
        .replace(/--control-border: #[0-9a-f]+;/i, '--control-border: #323846;')
        .replace(/--muted: #[0-9a-f]+;/i, '--muted: #4d5565;')
        .replace(/--ok-text: #[0-9a-f]+;/i, '--ok-text: #1e5a3c;'),
    ).dark;
    const found = failures(bad).join('\n');
    expect(found).toContain('boundary: --control-border #323846 on --bg');
    expect(found).toContain('text: --muted #4d5565 on --surface');
    expect(found).toContain('ok status: --ok-text #1e5a3c on --ok-bg');
  });

  it('the stylesheet uses the tokens: no literal colour outside the theme blocks', () => {
    const rules = css.slice(css.indexOf('}\n', css.indexOf(":root[data-theme='light'] {")) + 2);
    const literals = [...rules.matchAll(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/gi)].map((m) => m[0]);
    expect(literals).toEqual([]);
  });
});
