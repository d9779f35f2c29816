// The route label of /metrics: the pattern of the route that serves a path, never the path with its ids, so the
// label set stays bounded whatever URLs are asked for.
import { describe, expect, it } from 'vitest';
import { routeLabeller } from '#server/http/metrics.ts';

const label = routeLabeller({
  restPaths: ['/sim', '/sim/all', '/sim/{id}', '/sim/deactivate/{id}', '/sim/bulk'],
  pagePaths: ['', 'sims', 'sims/:id', 'sims/:id/deactivate', 'sims/deactivate', 'api/*', '*'],
  staticFiles: ['favicon.svg', 'robots.txt'],
});

describe('route labels', () => {
  it.each([
    ['/', '/'],
    ['/sims', '/sims'],
    ['/sims/123', '/sims/:id'],
    ['/sims/123/deactivate', '/sims/:id/deactivate'],
    ['/sims/deactivate', '/sims/deactivate'],
    ['/sims.data', '/sims.data'],
    ['/sims/77.data', '/sims/:id.data'],
    ['/_root.data', '/_root.data'],
    ['/api/sim/all', '/api/sim/all'],
    ['/api/sim/42', '/api/sim/{id}'],
    ['/api/sim/deactivate/42', '/api/sim/deactivate/{id}'],
    ['/api/trpc/sim.all,auth.takeFlash', '/api/trpc/*'],
    ['/api/whatever/99', '/api/*'],
    ['/assets/entry.client-AbC123.js', '/assets/*'],
    ['/favicon.svg', '/favicon.svg'],
    ['/livez', '/livez'],
    ['/some/unknown/path/123456', '/*'],
  ])('%s is counted as %s', (path, expected) => {
    expect(label(path)).toBe(expected);
  });

  it('has no pages to match in development: whatever no other route takes is "page"', () => {
    const dev = routeLabeller({ restPaths: ['/sim/{id}'], pagePaths: [], staticFiles: [] });
    expect(dev('/sims/12')).toBe('page');
    expect(dev('/api/sim/12')).toBe('/api/sim/{id}');
  });
});
