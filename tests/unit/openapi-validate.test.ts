// The answer validator of the API tests (tests/helpers/openapi-validate.ts) can fail: a body that does not fit,
// a status the operation does not list, a header of the wrong type; and it passes what fits.
import { describe, expect, it } from 'vitest';
import { openApiValidator } from '#tests/helpers/openapi-validate.ts';

const json = { 'content-type': 'application/json; charset=utf-8' };
const v = openApiValidator();
const error = JSON.stringify({ error: 'Nekad', issues: [] });

describe('the OpenAPI answer validator', () => {
  it('finds the operation by method and path template, and leaves what is not a REST operation', () => {
    expect(v.operationOf('GET', '/api/sim/all')?.path).toBe('/sim/all');
    expect(v.operationOf('GET', '/api/sim/42')?.path).toBe('/sim/{id}');
    expect(v.operationOf('HEAD', '/api/SIM/42/')?.path).toBe('/sim/{id}');
    expect(v.operationOf('POST', '/api/sim/deactivate/7')?.path).toBe('/sim/deactivate/{id}');
    for (const path of ['/api/trpc/sim.list', '/api/sse', '/api/openapi.json', '/api/nothing/here', '/healthz'])
      expect(v.operationOf('GET', path), path).toBeNull();
  });

  it('passes an answer that fits', () => {
    expect(v.check({ method: 'GET', path: '/api/sim/all', status: 401, headers: json, body: error })).toEqual([]);
    expect(
      v.check({
        method: 'GET',
        path: '/api/rate_plans',
        status: 429,
        headers: { ...json, 'retry-after': '12' },
        body: error,
      }),
    ).toEqual([]);
  });

  it('fails a body that does not fit, an undocumented status, a header of the wrong type, a non-JSON body', () => {
    const wrongBody = v.check({
      method: 'GET',
      path: '/api/sim/all',
      status: 401,
      headers: json,
      body: JSON.stringify({ message: 'Unauthorized', code: 'UNAUTHORIZED' }),
    });
    expect(wrongBody).toEqual([expect.stringMatching(/body does not fit GET \/sim\/all 401/)]);
    const okWrongShape = v.check({
      method: 'GET',
      path: '/api/sim/all',
      status: 200,
      headers: json,
      body: '{"sims":1}',
    });
    expect(okWrongShape).toEqual([expect.stringMatching(/body does not fit/)]);
    expect(v.check({ method: 'GET', path: '/api/sim/all', status: 418, headers: json, body: error })).toEqual([
      expect.stringMatching(/status not documented/),
    ]);
    expect(
      v.check({
        method: 'GET',
        path: '/api/rate_plans',
        status: 429,
        headers: { ...json, 'retry-after': 'soon' },
        body: error,
      }),
    ).toEqual([expect.stringMatching(/Retry-After is not an integer/)]);
    expect(
      v.check({
        method: 'GET',
        path: '/api/sim/all',
        status: 401,
        headers: { 'content-type': 'text/html' },
        body: '<p>',
      }),
    ).toEqual([expect.stringMatching(/not JSON/)]);
  });
});
