// Where "< Backa" leads, and which redirect targets are allowed.
import { describe, expect, it } from 'vitest';
import { backHref, parentPath, safeRedirectTarget } from '#app/utils/paths.ts';
import { listOf } from '#app/sims/links.ts';
import { listFrom, withList } from '#app/sims/list-return.ts';

describe('parentPath', () => {
  it.each([
    ['/add', '/'],
    ['/sims', '/'],
    ['/sims/12', '/sims'],
    ['/sims/12/deactivate', '/sims/12'],
    ['/admin/companies/3/7', '/admin/companies/3'],
    ['/admin/companies/', '/admin'],
    ['/auth/magic', '/login'],
  ])('%s -> %s', (path, parent) => expect(parentPath(path)).toBe(parent));
});

describe("backHref: a SIM's way back to the list it was opened from", () => {
  const list = listOf('8946 12', 3, {
    sort: 'usage-desc',
    filter: null,
    tag: ['Göteborg'],
    status: 'paused',
  });
  const sim = withList('/sims/12', list);
  it('the list with its search, view, tags, state and page', () => {
    expect(sim.startsWith('/sims/12?list=')).toBe(true);
    const back = new URL(backHref('/sims/12', sim.slice(sim.indexOf('?'))), 'http://x');
    expect(back.pathname).toBe('/sims');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      q: '8946 12',
      sort: 'usage-desc',
      tag: 'Göteborg',
      status: 'paused',
      page: '3',
    });
  });
  it("the deactivation's back is the SIM, still carrying the list", () => {
    expect(backHref('/sims/12/deactivate', sim.slice(sim.indexOf('?')))).toBe(sim);
  });
  it('keeps only the list’s own parameters; the plain list without any; other pages as before', () => {
    expect(listFrom(`?list=${encodeURIComponent('q=a&next=//evil.example&redirectTo=x&page=2')}`)).toBe('q=a&page=2');
    expect(backHref('/sims/12', '')).toBe('/sims');
    expect(backHref('/sims/12', '?list=')).toBe('/sims');
    expect(backHref('/admin/companies/3', `?list=${encodeURIComponent('q=a')}`)).toBe('/admin/companies');
    expect(withList('/sims/12', '')).toBe('/sims/12');
  });
});

describe('safeRedirectTarget', () => {
  it.each([
    ['/sims?page=2', '/sims?page=2'],
    ['/sims/12', '/sims/12'],
    ['/sims?q=a%2Fb#top', '/sims?q=a%2Fb#top'],
    ['/admin/companies/3/../4', '/admin/companies/4'],
    ['/sims?q=100%', '/sims?q=100%'],
    ['/sims?q=%C3%A5%20%E0%A4%A', '/sims?q=%C3%A5%20%E0%A4%A'],
  ])('keeps the local path %j -> %s', (target, expected) => expect(safeRedirectTarget(target)).toBe(expected));

  // Each of these, put in a Location header, leads (or could lead, after a browser or a proxy cleans it)
  // to another site or runs script.
  it.each([
    '//evil.example',
    '//evil.example/x',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    '/%09/evil.example/x',
    '/\t/evil.example/x',
    '/\t\t/evil.example',
    '/\r\n/evil.example',
    '/%0d%0a/evil.example',
    '/%0A/evil.example',
    '/%00/evil.example',
    '/%7f/evil.example',
    '/%2509/evil.example',
    '/sims\r\nSet-Cookie: x=1',
    '/%2F%2Fevil.example',
    '/%2f/evil.example',
    '/%5Cevil.example',
    '/%5C%5Cevil.example',
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2e%2e//evil.example',
    'https://evil.example/',
    'http://evil.example',
    'HTTPS://EVIL.EXAMPLE/sims',
    'https:evil.example',
    'http:evil.example',
    '//localhost:3000@evil.example',
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    ' javascript:alert(1)',
    '\tjavascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '',
    null,
    undefined,
  ])('refuses %j', (target) => {
    expect(safeRedirectTarget(target)).toBe('/');
    expect(safeRedirectTarget(target, '/login', 'https://portal.example')).toBe('/login');
  });

  it('accepts an absolute URL only on the origin of APP_URL, as a path', () => {
    const appUrl = 'https://portal.example';
    expect(safeRedirectTarget('https://portal.example/sims?page=2', '/', appUrl)).toBe('/sims?page=2');
    expect(safeRedirectTarget('http://portal.example/sims', '/', appUrl)).toBe('/');
    expect(safeRedirectTarget('https://portal.example:8443/sims', '/', appUrl)).toBe('/');
    expect(safeRedirectTarget('https://portal.example.evil.example/sims', '/', appUrl)).toBe('/');
    expect(safeRedirectTarget('https://evil.example/sims', '/', appUrl)).toBe('/');
  });
});
