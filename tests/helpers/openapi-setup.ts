// Every answer of the REST paths that a test receives through fetch is checked against the published OpenAPI
// document (tests/helpers/openapi-validate.ts), with no code in the tests: fetch is wrapped in the test
// process, each such answer cloned and checked, and afterEach fails the test naming each mismatch. Calls made
// with http.request or raw sockets are not seen (docs/testing.md names those tests).
import { afterEach } from 'vitest';
import type { OpenApiValidator } from './openapi-validate.ts';

const realFetch = globalThis.fetch;
let validator: Promise<OpenApiValidator> | null = null;
const pending = new Set<Promise<void>>();
const mismatches: string[] = [];

function methodOf(input: Parameters<typeof fetch>[0], init?: RequestInit): string {
  return (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
}

/** Checks one answer; `res` is a clone of it when its body is JSON, else null (a file is not read twice). */
async function checkAnswer(method: string, url: URL, answer: Response, res: Response | null): Promise<void> {
  // The validator (and the document, with the router behind it) is loaded at the first /api answer only.
  validator ??= import('./openapi-validate.ts').then((m) => m.openApiValidator());
  const v = await validator;
  if (!v.operationOf(method, url.pathname)) return;
  let body = '';
  try {
    body = res ? await res.text() : '';
  } catch {
    return; // the test aborted the call or stopped the server mid-answer: nothing to check
  }
  const { status, headers } = answer;
  mismatches.push(...v.check({ method, path: url.pathname, status, headers, body }));
}

globalThis.fetch = async function checkedFetch(input, init) {
  const res = await realFetch(input, init);
  let url: URL | null = null;
  try {
    url = new URL(res.url || (input instanceof Request ? input.url : String(input)));
  } catch {
    url = null;
  }
  // Only the portal's own answers (it names each with X-Request-Id): a proxy's own 502 for a POST cut off with
  // the instance that was answering it (tests/api/instances.test.ts) is not the portal's to document.
  if (url?.pathname.startsWith('/api/') && !res.redirected && res.headers.has('x-request-id')) {
    const method = methodOf(input, init);
    const json = /^application\/json\b/i.test(res.headers.get('content-type') ?? '');
    const check = checkAnswer(method, url, res, json ? res.clone() : null).finally(() => pending.delete(check));
    pending.add(check);
  }
  return res;
};

afterEach(async () => {
  // The checks of this test's answers (a body the test never read is read here; bounded, as one may never end).
  if (pending.size > 0)
    await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, 15_000).unref())]);
  if (mismatches.length === 0) return;
  const found = mismatches.splice(0);
  throw new Error(`answers that do not fit the OpenAPI document:\n- ${found.join('\n- ')}`);
});
