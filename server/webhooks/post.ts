// One webhook attempt: a signed POST to an endpoint's URL, checked against the target policy
// (server/net/target-policy.ts) before and while connecting; only the answer's status counts. The delivery worker
// (deliver.ts) sends through it.
import { createHmac } from 'node:crypto';
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
  type TargetPolicy,
} from '#server/net/target-policy.ts';

/**
 * The signature header's value: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">, one v1 per secret (the
 * current one first; after a rotation the previous one too, as Stripe does, so a receiver may switch at leisure).
 */
export function signature(secrets: string | readonly string[], body: string, nowMs = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  const v1s = (typeof secrets === 'string' ? [secrets] : secrets).map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`,
  );
  return [`t=${t}`, ...v1s].join(',');
}

/** The outcome of one attempt: the status code, or our own short reason. */
export type Attempt = { ok: boolean; status: number | null; error: string | null };

/** One signed POST; the answer's body is never read, redirects are not followed. */
export function post(
  url: string,
  body: string,
  secrets: string | readonly string[],
  opts: { timeoutMs: number; policy: TargetPolicy },
): Promise<Attempt> {
  const problem = urlProblem(url, opts.policy);
  if (problem) return Promise.resolve({ ok: false, status: null, error: `Adressen nekas (${problem})` });
  const u = new URL(url);
  const host = hostOf(u);
  const policy = policyFor(u, opts.policy);
  if (isIP(host) && addressProblem(host, policy))
    return Promise.resolve({ ok: false, status: null, error: 'Adressen nekas' });
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const req = lib.request(
      u,
      {
        method: 'POST',
        lookup: guardedLookup(policy),
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'SIM-portalen-webhooks/1',
          'x-sim-portal-signature': signature(secrets, body),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // Only the status matters: the body is not read (nor kept), the connection closed.
        res.destroy();
        done({
          ok: status >= 200 && status < 300,
          status,
          error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
        });
      },
    );
    // The whole attempt, connect to answer, within the timeout.
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, status: null, error: 'Tidsgränsen överskreds' });
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({
        ok: false,
        status: null,
        error: err.code === TARGET_REFUSED ? 'Adressen nekas' : `Anslutningen misslyckades (${err.code ?? 'fel'})`,
      }),
    );
    req.end(body);
  });
}
