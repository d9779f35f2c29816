// Where "< Backa" leads, and which redirect targets are allowed.
import { describe, expect, it } from 'vitest';
import { parentPath, safeRedirectTarget } from '../../app/utils/paths.js';

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

describe('safeRedirectTarget', () => {
  it.each([
    ['/sims?page=2', '/sims?page=2'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['', '/'],
    [null, '/'],
  ])('%j -> %s', (target, expected) => expect(safeRedirectTarget(target)).toBe(expected));
});
