// The doors a change comes through, as an HTTP client or a browser uses them, and what a change leaves in the
// database: for the authorization matrices (tests/api/authorization-matrix.test.ts).
import { randomBytes } from 'node:crypto';
import { Passkey, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';

export type Answer = { status: number; location: string | null; text: string; json: unknown };

/** Who sends a request: a session cookie, an API key (no cookie), or nobody. */
export type Credentials = { cookie?: string; bearer?: string };

/** A page's form post as a browser without JavaScript sends it, or a page's JSON door as its script calls it. */
export type PageRequest = { path: string; form: Record<string, string | string[]> } | { path: string; json: unknown };

export async function send(
  base: string,
  method: string,
  path: string,
  who: Credentials,
  body?: { json: unknown } | { form: Record<string, string | string[]> },
  browser = false,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (who.cookie) headers.cookie = who.cookie;
  if (who.bearer) headers.authorization = `Bearer ${who.bearer}`;
  // A browser's own page posting to its origin (docs/decisions/005); API clients send neither header.
  if (browser) Object.assign(headers, { origin: base, 'sec-fetch-site': 'same-origin' });
  let payload: string | undefined;
  if (body && 'form' in body) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(body.form)) for (const one of [v].flat()) form.append(k, one);
    payload = form.toString();
  } else if (body) {
    // A JSON door's content type, also where the input is nothing (a procedure without input).
    headers['content-type'] = 'application/json';
    if (body.json !== undefined) payload = JSON.stringify(body.json);
  }
  const res = await fetch(base + path, { method, headers, body: payload, redirect: 'manual' });
  const text = /json|text|html/.test(res.headers.get('content-type') ?? '') ? await res.text() : '';
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // a page
  }
  return { status: res.status, location: res.headers.get('location'), text, json };
}

/** A page's request (form or JSON) sent as the browser would. */
export function sendPage(base: string, req: PageRequest, who: Credentials): Promise<Answer> {
  return send(base, 'POST', req.path, who, 'form' in req ? { form: req.form } : { json: req.json }, true);
}

/**
 * What the sensitive changes leave in the database, hashed: companies, users, API keys, webhooks, single sign-on
 * settings and domains, rules, network keys, passkeys, recovery codes, sessions (not their last-seen time, which a request may touch),
 * WebAuthn challenges and the audit trail. `exceptCompanyId`: leave that company's rows (and its users') out.
 */
export async function fingerprint(em: Em, exceptCompanyId = 0): Promise<string> {
  const x = exceptCompanyId;
  const agg = (alias: string, order: string) => `md5(coalesce(string_agg(${alias}::text, ',' order by ${order}), ''))`;
  const ofUser = (table: string, alias: string, order: string) =>
    `(select ${agg(alias, order)} from ${table} ${alias} join app_user u on u.id = ${alias}.user_id where u.company_id <> ?)`;
  // A row as JSON, less the columns a request may touch without changing anything (last seen, last used).
  const row = (alias: string, volatile = '') => `(to_jsonb(${alias})${volatile ? ` - '${volatile}'` : ''})::text`;
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select
      (select count(*) from audit_event where coalesce(company_id, 0) <> ?) as audit,
      (select ${agg('c', 'c.id')} from company c where c.id <> ?) as companies,
      (select ${agg('u', 'u.id')} from app_user u where u.company_id <> ?) as users,
      (select ${agg(row('k', 'last_used_at'), 'k.id')} from api_key k where k.company_id <> ?) as keys,
      (select ${agg('w', 'w.id')} from webhook_endpoint w where w.company_id <> ?) as webhooks,
      (select ${agg('ru', 'ru.id')} from rule ru where ru.company_id <> ?) as rules,
      (select ${agg(row('n', 'last_used_at'), 'n.id')} from network_key n) as network_keys,
      (select ${agg('s', 's.company_id')} from sso_config s where s.company_id <> ?) as sso,
      (select ${agg(row('d'), 'd.domain')} from sso_domain d where d.company_id <> ?) as domains,
      ${ofUser('passkey', 'p', 'p.id')} as passkeys,
      ${ofUser('recovery_code', 'r', 'r.id')} as recovery,
      (select ${agg(row('s', 'last_seen_at'), 's.id')}
        from app_session s join app_user u on u.id = s.user_id where u.company_id <> ?) as sessions,
      (select count(*) from webauthn_challenge ch left join app_user u on u.id = ch.user_id
        where coalesce(u.company_id, 0) <> ?) as challenges`,
    [x, x, x, x, x, x, x, x, x, x, x, x],
  );
  return JSON.stringify(rows[0]);
}

/** A stored passkey of a fixture authenticator for the user (never asked to sign); answers its id. */
export async function fixturePasskey(em: Em, userId: number, name = 'Testnyckel'): Promise<number> {
  const passkey = em.create(Passkey, {
    user: em.getReference(User, userId),
    credentialId: randomBytes(32).toString('base64url'),
    publicKey: randomBytes(77).toString('base64url'),
    counter: 0,
    transports: ['internal'],
    deviceType: 'multiDevice',
    backedUp: true,
    name,
  });
  await em.flush();
  return passkey.id;
}
