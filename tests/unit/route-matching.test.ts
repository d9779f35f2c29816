// The server's route matching with patches/@remix-run+router (its compiled paths, and each routes array's branches
// flattened and ranked once): the same routes array matched again gives the same answers, the most specific route
// first, and another routes array is matched by its own branches.
import { matchRoutes, type AgnosticRouteObject } from '@remix-run/router';
import { describe, expect, it } from 'vitest';

const ids = (routes: AgnosticRouteObject[], path: string) => matchRoutes(routes, path)?.map((m) => m.route.id) ?? null;

describe('route matching on the server', () => {
  const routes: AgnosticRouteObject[] = [
    {
      id: 'root',
      path: '/',
      children: [
        { id: 'sims', path: 'sims', index: true },
        { id: 'sim', path: 'sims/:id' },
        { id: 'deactivate', path: 'sims/deactivate' },
        { id: 'splat', path: '*' },
      ],
    },
  ];

  it('answers the same, most specific first, however often the same array is matched', () => {
    for (let i = 0; i < 3; i++) {
      expect(ids(routes, '/sims')).toEqual(['root', 'sims']);
      expect(ids(routes, '/sims/deactivate')).toEqual(['root', 'deactivate']);
      expect(ids(routes, '/sims/12')).toEqual(['root', 'sim']);
      expect(ids(routes, '/nothing/here')).toEqual(['root', 'splat']);
    }
  });

  it('a new routes array is matched by its own branches', () => {
    const other: AgnosticRouteObject[] = [{ id: 'only', path: '/only' }];
    expect(ids(other, '/only')).toEqual(['only']);
    expect(ids(other, '/sims')).toBeNull();
    expect(ids(routes, '/only')).toEqual(['root', 'splat']);
  });
});
