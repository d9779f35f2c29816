// The server's route matching with patches/@remix-run+router (its compiled paths, and each routes array's branches
// flattened and ranked once): the same routes array matched again gives the same answers, the most specific route
// first, and another routes array is matched by its own branches. And the routes a server render makes once per
// build (patches/@remix-run+server-runtime, @remix-run+react, react-router-dom): the same objects, each request's
// matches its own.
import { createRequire } from 'node:module';
import { matchRoutes, type AgnosticRouteObject } from '@remix-run/router';
import { describe, expect, it } from 'vitest';

// The CommonJS builds, which the server loads (and the patches change), not the ES modules a bundler would pick.
const require = createRequire(import.meta.url);
const { createStaticHandler, createStaticRouter } =
  require('react-router-dom/server') as typeof import('react-router-dom/server');
const { createEntryRouteModules } =
  require('@remix-run/server-runtime/dist/entry.js') as typeof import('@remix-run/server-runtime/dist/entry.js');

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

  it("remembers a path's matches, and gives each caller its own copy", () => {
    const first = matchRoutes(routes, '/sims/12');
    const second = matchRoutes(routes, '/sims/12');
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second?.[1]).not.toBe(first?.[1]);
    // As from a walk of the branches: the matches of one answer share one params object, not another answer's.
    expect(second?.[0]?.params).toBe(second?.[1]?.params);
    expect(second?.[0]?.params).not.toBe(first?.[0]?.params);
    // A caller that changes its answer (the router's own code does not, but nothing stops it) changes no other.
    if (first?.[1]) Object.assign(first[1].params, { id: 'changed' });
    expect(matchRoutes(routes, '/sims/12')?.[1]?.params).toEqual({ id: '12' });
    expect(matchRoutes(routes, '/sims/13')?.[1]?.params).toEqual({ id: '13' });
    // A partial match (the router's lazy route discovery) is remembered apart from a whole one.
    expect(matchRoutes([{ id: 'a', path: '/a' }], '/a/b')).toBeNull();
  });

  it('a new routes array is matched by its own branches', () => {
    const other: AgnosticRouteObject[] = [{ id: 'only', path: '/only' }];
    expect(ids(other, '/only')).toEqual(['only']);
    expect(ids(other, '/sims')).toBeNull();
    expect(ids(routes, '/only')).toEqual(['root', 'splat']);
  });
});

describe("the server render's routes, made once per build", () => {
  // patches/react-router-dom: the static router converts one routes array once; each render's matches are its own.
  const routes = [
    {
      id: 'root',
      path: '/',
      children: [
        { id: 'sims', path: 'sims' },
        { id: 'sim', path: 'sims/:id' },
      ],
    },
  ];
  const routerFor = async (path: string) => {
    const handler = createStaticHandler(routes);
    const context = await handler.query(new Request(`http://localhost${path}`));
    if (context instanceof Response) throw new Error('a redirect');
    return createStaticRouter(routes, context);
  };

  it('converts the same routes once, and each request keeps its own matches', async () => {
    const [list, one] = [await routerFor('/sims'), await routerFor('/sims/12')];
    const again = await routerFor('/sims');
    expect(one.routes).toBe(list.routes);
    expect(again.routes).toBe(list.routes);
    expect(list.state.matches.map((m) => m.route.id)).toEqual(['root', 'sims']);
    expect(one.state.matches.map((m) => [m.route.id, m.params])).toEqual([
      ['root', { id: '12' }],
      ['sim', { id: '12' }],
    ]);
    expect(again.state.matches.map((m) => m.params)).toEqual([{}, {}]);
    // The matches' routes are the converted ones, as without the cache.
    expect(one.state.matches[1]?.route).toBe(list.routes[0]?.children?.[1]);
  });
});

describe("Remix's route modules, one object per build", () => {
  // patches/@remix-run+server-runtime: RemixServer's routes are cached by this object (patches/@remix-run+react).
  it('gives the same object for the same routes, and another for another build', () => {
    const route = (id: string) => ({ id, path: id, module: { default: () => null } });
    const build: Parameters<typeof createEntryRouteModules>[0] = { root: route('root'), sims: route('sims') };
    const first = createEntryRouteModules(build);
    expect(createEntryRouteModules(build)).toBe(first);
    expect(first).toEqual({ root: build.root?.module, sims: build.sims?.module });
    expect(createEntryRouteModules({ root: route('root') })).not.toBe(first);
  });
});
