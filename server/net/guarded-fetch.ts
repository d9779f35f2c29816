// A fetch for connections the portal makes on a customer's say-so (a company's identity provider, through
// openid-client's customFetch): every request is held to the target policy (target-policy.ts) before any packet is
// sent, and connects only to the address it has just checked (no DNS rebinding). Bounded: one time limit for the
// whole request, an answer of at most `maxBytes`, no redirect followed (the answer is handed back as it is).
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  addressProblem,
  guardedLookup,
  hostOf,
  policyFor,
  TARGET_REFUSED,
  urlProblem,
  type Resolver,
  type TargetPolicy,
  type UrlProblem,
} from './target-policy.ts';

/** A request the policy refused before connecting. */
export class TargetRefused extends Error {
  readonly code = TARGET_REFUSED;
  constructor(
    readonly url: string,
    readonly problem: UrlProblem,
  ) {
    super(`refused target (${problem})`);
    this.name = 'TargetRefused';
  }
}

export type GuardedFetchOpts = {
  policy: TargetPolicy;
  timeoutMs: number;
  /** The most an answer's body may hold (default 1 MB). */
  maxBytes?: number;
  resolve?: Resolver;
  /** Told of every refusal, before the request fails (the log; the tests' proof that nothing was sent). */
  onRefused?: (refused: TargetRefused) => void;
};

type FetchInit = { method?: string; headers?: HeadersInit; body?: unknown; signal?: AbortSignal | null };

const NULL_BODY = new Set([204, 205, 304]);

function bodyBytes(body: unknown): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new TypeError('guardedFetch: unsupported body');
}

export function guardedFetch(opts: GuardedFetchOpts): (url: string, init?: FetchInit) => Promise<Response> {
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const refuse = (url: string, problem: UrlProblem) => {
    const err = new TargetRefused(url, problem);
    opts.onRefused?.(err);
    return Promise.reject(err);
  };
  return (url, init = {}) => {
    const problem = urlProblem(url, opts.policy);
    if (problem) return refuse(url, problem);
    const u = new URL(url);
    const policy = policyFor(u, opts.policy);
    const host = hostOf(u);
    const literal = isIP(host) ? addressProblem(host, policy) : null;
    if (literal) return refuse(url, literal);
    let body: Buffer | null;
    try {
      body = bodyBytes(init.body);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const headers = new Headers(init.headers);
    if (body) headers.set('content-length', String(body.length));
    const lib = u.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const fail = (err: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      };
      const onAbort = () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      const req = lib.request(u, {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(headers),
        agent: false,
        lookup: guardedLookup(policy, opts.resolve),
      });
      req.on('error', (err: NodeJS.ErrnoException & { problem?: UrlProblem }) => {
        if (err.code !== TARGET_REFUSED) return fail(err);
        // Refused at the lookup: the name resolved to an address the policy does not reach; nothing was sent.
        const refused = new TargetRefused(url, err.problem ?? 'private');
        opts.onRefused?.(refused);
        fail(refused);
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            fail(Object.assign(new Error(`answer over ${maxBytes} bytes`), { code: 'ETOOLARGE' }));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', fail);
        res.on('end', () => {
          signal.removeEventListener('abort', onAbort);
          if (status < 200 || status > 599) {
            reject(Object.assign(new Error(`unexpected status ${status}`), { code: 'EBADSTATUS' }));
            return;
          }
          const out = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
          }
          resolve(new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers: out }));
        });
      });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      req.end(body ?? undefined);
    });
  };
}
