// Long: every correction of the generated document in one pass over it, so the document is made in one place.
// The generated OpenAPI document made exact, in one place (run once by openApi in openapi.ts): trpc-to-openapi
// describes errors with its own shape ({ message, code, issues }) and only some statuses, while every door
// answers { error, issues } (server/http/answer.ts, domain/errors.ts errorBody) with the statuses below. Here
// every operation gets the statuses its door can really send, each a reference to one shared response and
// the one Error schema, and an example of its request and answer made from its own schemas (so an example
// always fits the document: tests/api/openapi-contract.test.ts checks both against real answers). Besides:
// the rate-limit and idempotency headers, the limits in the info description, and the webhooks
// (openapi-webhooks.ts). One file (over 250 lines) as one pass over the generated document.
import { t } from '#domain/texts/common.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { luhnCheckDigit } from '#domain/sims/iccid.ts';
import { tIdempotency } from '#domain/texts/idempotency.ts';
import { DEFAULT_BODY_LIMIT } from './bodies.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from './answer.ts';
import { addWebhooks } from './openapi-webhooks.ts';

type Json = Record<string, unknown>;
type Schema = Json & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Parameter = Json & { name: string; in: string; schema?: Schema };
type Operation = Json & {
  // trpc-to-openapi writes parameter objects; the Idempotency-Key header is added below as a reference to one.
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown }> };
  responses?: Record<string, Json & { content?: Record<string, { schema?: Schema; example?: unknown }> }>;
};
type Document = Json & { paths?: Record<string, unknown>; components?: Json & { schemas?: Record<string, unknown> } };

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const errorRef = { $ref: '#/components/schemas/Error' };

/** The one error body of every door. */
export const errorSchema = {
  type: 'object',
  description:
    'Every refusal and failure, at every door: a Swedish message for the user and the refused fields (issues, [] when the refusal is about the whole request).',
  properties: {
    error: { type: 'string', description: 'A Swedish message that can be shown as it is.' },
    issues: {
      type: 'array',
      description: 'The refused fields: the path of each in the input and its message.',
      items: {
        type: 'object',
        properties: {
          path: { type: 'array', items: { type: 'string' }, description: 'e.g. ["iccid"] or ["rows", "3", "iccid"]' },
          message: { type: 'string' },
        },
        required: ['path', 'message'],
        additionalProperties: false,
      },
    },
    requestId: {
      type: 'string',
      description:
        'On 500 and 503: the request id of the server log (also the X-Request-Id header), to quote to support.',
    },
    stepUp: {
      type: 'boolean',
      const: true,
      description:
        'On a 403 of a change that needs a recent passkey use of the session: confirm with the passkey and try again.',
    },
  },
  required: ['error', 'issues'],
  additionalProperties: false,
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * The answers' headers, in components.headers. The rate-limit headers are on every answer of the REST paths but
 * a 401 (a caller without a session or a valid key has no budget); `required: false` as an answer may come before the
 * budget is counted (a refusal of the body reader, a server fault).
 */
export const HEADERS = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Limit': {
    description:
      "The caller's budget of requests in the current window (a minute): API_KEY_RATE_LIMIT for an API key, API_SESSION_RATE_LIMIT for a signed-in user.",
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description:
      'What is left of the budget in this window (a bulk call spends one per ICCID or id of its list); 0: the next request gets 429.',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window ends and the budget is whole again.',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  'Idempotent-Replayed': {
    description:
      'On a POST, PUT or PATCH with an Idempotency-Key seen before with the same request (within 24 h): this answer (a 2xx, or a 400, 404, 409 or 422 of the procedure) is the first one replayed, nothing was done again.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;
const rateLimitHeaders = () => Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, headerRef(name)]));
const retryAfter = headerRef('Retry-After');

/** The optional request header of every POST, PUT and PATCH (components.parameters). */
export const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same body within 24 h is not done again but answered with the first answer (and `Idempotent-Replayed: true`). The same key with another body is 422; while the first request with the key is still running, a second one waits, and gets 409 with Retry-After if it waited too long. Use a new random key (e.g. a UUID) per change, and the same key for its retries.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  example: '5f0c8a8e-7c1b-4d6e-9f2a-3b4c5d6e7f80',
};

/** The refusals an Idempotency-Key's first request may have had, and so its replay. */
const replayed = { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') };

function errorResponse(description: string, example: Json, headers?: Json) {
  return {
    description,
    headers: { ...headers, ...rateLimitHeaders() },
    content: { 'application/json': { schema: errorRef, example } },
  };
}

const requestIdExample = '3f1c2a9e-5b7d-4c1e-9a2b-6d8e0f1a2b3c';

/** The shared error answers, by the name an operation refers to them with, and the status it is under. */
export const errorResponses = {
  BadRequest: [
    400,
    errorResponse(
      'Refused input: a field breaks a rule (issues name each), malformed JSON, a missing or wrong Content-Type (the REST paths answer 400, not 415), a session cookie and an API key in one request, a malformed Idempotency-Key, or a malformed Host or text (NUL, bad UTF-8) in the URL or body.',
      {
        error: t.errors.fields.iccid.checkDigit,
        issues: [{ path: ['iccid'], message: t.errors.fields.iccid.checkDigit }],
      },
      replayed,
    ),
  ],
  Unauthorized: [
    401,
    errorResponse(
      'No session and no API key, or a missing, malformed, wrong, revoked or expired key. Answered before the body is read.',
      { error: t.errors.unauthenticated, issues: [] },
    ),
  ],
  Forbidden: [
    403,
    errorResponse(
      'The caller may not do this: the role (a viewer, a member on an owner path), the key scope (a read key on a change), an API key on a session-only path, a cross-site request, or a change that needs a recent passkey use (then stepUp: true).',
      { error: tSecurity.stepUp.required, issues: [], stepUp: true },
    ),
  ],
  NotFound: [
    404,
    errorResponse(
      'The thing does not exist, or not for this caller (the two are not told apart).',
      { error: t.errors.byCode.NOT_FOUND, issues: [] },
      replayed,
    ),
  ],
  Conflict: [
    409,
    errorResponse(
      'Well-formed but clashing with what is stored: a taken ICCID, e-mail or customer number, a legacy SIM, the last owner, too many webhooks, a disabled endpoint, a rule name already taken or too many rules. Or, with Retry-After: a request with the same Idempotency-Key is still running and this one waited for it for 30 s.',
      { error: t.errors.simAlreadyActive, issues: [{ path: ['iccid'], message: t.errors.simAlreadyActive }] },
      { 'Retry-After': retryAfter, ...replayed },
    ),
  ],
  IdempotencyInProgress: [
    409,
    errorResponse(
      'A request with the same Idempotency-Key is still running and this one waited for it for 30 s: try again after Retry-After (the first answer is then replayed).',
      { error: tIdempotency.stillRunning, issues: [] },
      { 'Retry-After': retryAfter },
    ),
  ],
  IdempotencyKeyReused: [
    422,
    errorResponse(
      'The Idempotency-Key was used within 24 h for another request (another method, path or body): use a new key for a new request. Also the replay of a first request that was itself a 422.',
      { error: tIdempotency.otherRequest, issues: [] },
      replayed,
    ),
  ],
  PayloadTooLarge: [
    413,
    errorResponse(
      `The body is larger than the path takes (${DEFAULT_BODY_LIMIT / 1024} kB; POST /sim/bulk 6 MB, POST /sim/bulk/deactivate 256 kB).`,
      { error: t.refused.tooLarge(DEFAULT_BODY_LIMIT / 1024), issues: [] },
    ),
  ],
  TooManyRequests: [
    429,
    errorResponse(
      "The caller's budget for this minute is spent: an API key's (API_KEY_RATE_LIMIT) or a signed-in user's (API_SESSION_RATE_LIMIT); a bulk call weighs as many requests as its list has ICCIDs or ids. Retry-After says when the window ends.",
      { error: tApiKeys.errors.rateLimited(12), issues: [] },
      { 'Retry-After': { ...HEADERS['Retry-After'], required: true } },
    ),
  ],
  InternalServerError: [
    500,
    errorResponse('A fault of the server: the body carries the request id to quote.', {
      error: t.errors.byCode.INTERNAL_SERVER_ERROR,
      issues: [],
      requestId: requestIdExample,
    }),
  ],
  ServiceUnavailable: [
    503,
    errorResponse(
      `The database cannot be reached just now: try again after Retry-After (${DATABASE_RETRY_AFTER_SECONDS} s).`,
      { error: t.errors.databaseDown, issues: [], requestId: requestIdExample },
      { 'Retry-After': retryAfter },
    ),
  ],
} as const;
type ErrorResponseName = keyof typeof errorResponses;

/** Every operation, whoever calls it: the door's checks before and around the procedure. */
const EVERY_OPERATION: ErrorResponseName[] = [
  'BadRequest',
  'Unauthorized',
  'Forbidden',
  'PayloadTooLarge',
  'TooManyRequests',
  'InternalServerError',
  'ServiceUnavailable',
];

/** The operations whose service may refuse with a conflict (a Conflict of domain/errors.ts). */
export const CONFLICTS = new Set([
  'post /sim',
  'put /sim/edit',
  'post /sim/deactivate/{id}',
  'post /admin/createCompany',
  'put /admin/updateCompany',
  'post /admin/createUser',
  'put /admin/updateUser',
  'post /company/users',
  'put /company/users',
  'post /company/users/remove/{id}',
  'post /company/webhooks',
  'post /company/webhooks/test/{id}',
  'post /company/rules',
  'put /company/rules',
]);

/** A thing named by the request (a path parameter, an id in the query or body) may not exist, or not for this caller. */
function mayBeNotFound(path: string, op: Operation): boolean {
  const isId = (name: string) => name === 'id' || name.endsWith('Id');
  if (path.includes('{') || (op.parameters ?? []).some((p) => !('$ref' in p) && isId(p.name))) return true;
  const body = op.requestBody?.content?.['application/json']?.schema;
  return !!body?.properties && Object.keys(body.properties).some(isId);
}

const ICCID_PAYLOAD = '8946071234567890123'; // 19 digits and the Luhn check digit: a valid ICCID
const EXAMPLE_ICCID = ICCID_PAYLOAD + String(luhnCheckDigit(ICCID_PAYLOAD));

/** A value for a field by its name, where its schema alone would give a poor one. */
const STRING_HINTS: Array<[RegExp, string]> = [
  [/^iccids?$/i, EXAMPLE_ICCID],
  [/email/i, 'anna.andersson@example.se'],
  [/^url$/i, 'https://hooks.example.se/sim-portal'],
  [/(^at$|At$|Until$)/, '2026-03-01T09:30:00.000Z'],
  [/^name$/i, 'Anna Andersson'],
  [/companyName/i, 'Exempelbolaget AB'],
  [/customerNumber/i, 'K-10042'],
  [/invoiceLineMark/i, 'Lastbil 12'],
  [/invoiceLineNote/i, 'Förare: Erik'],
  [/^q$/, 'Lastbil'],
  [/message/i, 'Tack för en bra portal!'],
  [/prefix/i, 'sp_3kQ9xZ1a'], // a key's first 11 characters
  [/^key$/i, 'sp_3kQ9xZ1aB4cD5eF6gH7iJ8kL9mN0oP1qR2sT3uV4wXy'],
  [/secret/i, 'whsec_4f9a1c0b7e2d4a8c9b3e5f6a7d8c9e0f1a2b3c4d5e6'],
];

function hinted(name: string): string | undefined {
  return STRING_HINTS.find(([re]) => re.test(name))?.[1];
}

/**
 * An example value that fits the schema: its own example, const, default or first enum value, else one made
 * from its type, bounds and the field's name. A request names its required fields only (with the optional
 * ones a person would send); an answer names every field.
 */
export function exampleOf(schema: Schema | undefined, name = '', forRequest = false): unknown {
  if (!schema || typeof schema !== 'object') return null;
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const first = alternatives.find((a) => a.type !== 'null') ?? alternatives[0];
    return exampleOf(first, name, forRequest);
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((x) => x !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Json = {};
      const required = new Set(schema.required ?? []);
      for (const [key, field] of Object.entries(schema.properties ?? {})) {
        // A request names its required fields, and the optional ones a person would send (hinted, or with an example).
        if (forRequest && !required.has(key) && !(key === 'iccids' || hinted(key) || 'example' in field)) continue;
        if (forRequest && key === 'rows' && 'iccids' in (schema.properties ?? {})) continue;
        out[key] = exampleOf(field, key, forRequest);
      }
      return out;
    }
    case 'array': {
      const count = Math.max(1, Number(schema.minItems ?? 1));
      return Array.from({ length: count }, () => exampleOf(schema.items, name.replace(/s$/, ''), forRequest));
    }
    case 'integer':
    case 'number': {
      const min =
        typeof schema.minimum === 'number'
          ? schema.minimum
          : typeof schema.exclusiveMinimum === 'number'
            ? schema.exclusiveMinimum + 1
            : undefined;
      const wanted = /(^id$|Id$)/.test(name) ? 42 : /dataLimit/i.test(name) ? 5000 : /count|total/i.test(name) ? 3 : 1;
      const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
      return Math.min(Math.max(wanted, min ?? -Infinity), max);
    }
    case 'boolean':
      return !/^is[A-Z]/.test(name); // isLegacy, isSuperAdmin: the usual false
    case 'null':
      return null;
    case 'string': {
      if (typeof schema.pattern === 'string' && /\[0-9a-f\]\{64\}/.test(schema.pattern))
        return '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
      let text = hinted(name) ?? 'text';
      const minLength = Number(schema.minLength ?? 0);
      if (text.length < minLength) text = text.padEnd(minLength, 'x');
      if (typeof schema.maxLength === 'number') text = text.slice(0, schema.maxLength);
      return text;
    }
    default:
      return {};
  }
}

const METHODS = /^(get|post|put|patch|delete)$/;

/** Who may call a path, as its base procedure decides (server/trpc/trpc.ts), said in its description. */
const CALLERS: Array<[RegExp, string]> = [
  [/^\/admin\//, 'Super admins only.'],
  [/^\/company\//, "The company's owners (and support acting as the company)."],
  [/^\/sessions(\/|$)/, 'Any signed-in user, about their own sessions.'],
  [/^\/feedback$/, 'Company users (a session).'],
  [/^\/(sim|rate_plans)(\/|$)/, 'Company users: any role reads; a change needs a member or owner, or a write key.'],
];

/** The methods that change something: they take an Idempotency-Key. */
const CHANGES = /^(post|put|patch)$/;

/** The info description's paragraphs after the generated one: limits, retries, walking the list. */
const INFO_PARAGRAPHS = [
  `**Limits.** Every caller has a budget of requests per minute: an API key API_KEY_RATE_LIMIT (default 600), a signed-in user API_SESSION_RATE_LIMIT (default 600, on the REST paths, /api/trpc and the pages together), and on top of them its company COMPANY_RATE_LIMIT (default 3000: all its keys and users together), each shared by all server instances; a request spends all its budgets or none. A company holds at most API_KEYS_MAX_ACTIVE (default 20) active keys. POST /sim/bulk and POST /sim/bulk/deactivate weigh as many requests as their list has ICCIDs or ids (a list longer than the whole budget costs the whole budget: it goes through only at the start of a window). Every answer (but a 401: a caller without a session or a valid key has no budget) tells where its tightest budget (the least left) stands: \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the window ends). Past any of them the answer is 429 with \`Retry-After\` (seconds), its message naming the budget spent. Bodies are bounded too (413): ${DEFAULT_BODY_LIMIT / 1024} kB, POST /sim/bulk 6 MB, POST /sim/bulk/deactivate 256 kB.`,
  '**Retries.** 429 and 503 carry `Retry-After`: wait that long, then try again. A POST, PUT or PATCH may be retried safely with the same `Idempotency-Key` header (1 to 255 visible ASCII characters, e.g. a UUID per change): the same key with the same body within 24 h is answered with the first answer and `Idempotent-Replayed: true`, nothing done twice; the same key with another method, path or body is 422; a retry while the first is still running waits for it, and after 30 s gets 409 with `Retry-After`. A key belongs to its caller (the API key, or the user in the company they act for). Replayed are the answers of requests whose procedure ran (2xx, and 400, 404, 409, 422); a 401, 403, 429 or 5xx is not stored, so its retry is done anew. A replay is made only to a caller who passes the checks of the operation now (role, recent step-up, key scope): else the 401 or 403 they would get. Without a key a retried change may be done twice (an activation then answers 409: the ICCID is already active). 500 carries a `requestId` to quote to support.',
  '**Walking the whole fleet.** GET /sim/all answers a page (`limit` 1 to 50, default 50), newest first; when there is a next page its answer has `Link: <…/api/sim/all?limit=50&cursor=…>; rel="next"` (RFC 8288, with `q` kept). Follow that URL as it is until an answer has no `Link`: the cursor is opaque (up to 100 characters), and stays right while SIMs are activated meanwhile. A cursor and `offset` are not taken together (400).',
  "**Webhooks.** The events the portal POSTs to a company's endpoints are under `webhooks`: each payload, the `X-Sim-Portal-Signature` header and how to verify it, the answer expected and the retries.",
];

/**
 * Makes the generated document exact: the Error schema and the shared error answers in components, every
 * operation's error statuses as references to them, and an example of each request and answer.
 */
export function exactDocument(generated: object): void {
  const doc = generated as Document;
  const components = (doc.components ??= {});
  const schemas = (components.schemas ??= {});
  // The generator's own error schemas ({ message, code, issues }) describe no answer of ours.
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  schemas.Error = errorSchema;
  components.responses = Object.fromEntries(Object.entries(errorResponses).map(([name, [, r]]) => [name, r]));
  components.headers = HEADERS;
  components.parameters = { IdempotencyKey: idempotencyKeyParameter };
  const info = (doc.info ??= {}) as Json;
  info.description = [info.description, ...INFO_PARAGRAPHS].filter(Boolean).join('\n\n');

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (!METHODS.test(method) || typeof op !== 'object' || op === null) continue;
      const callers = CALLERS.find(([re]) => re.test(path))?.[1];
      if (callers && typeof op.description === 'string' && !op.description.includes(callers))
        op.description = `${op.description} ${callers}`;
      const names = [...EVERY_OPERATION];
      if (mayBeNotFound(path, op)) names.push('NotFound');
      const change = CHANGES.test(method);
      if (CONFLICTS.has(`${method} ${path}`)) names.push('Conflict');
      else if (change) names.push('IdempotencyInProgress');
      if (change) names.push('IdempotencyKeyReused');
      const responses: Operation['responses'] = {};
      for (const [status, answer] of Object.entries(op.responses ?? {}))
        if (/^2/.test(status))
          responses[status] = {
            ...answer,
            headers: {
              ...(answer.headers as Json | undefined),
              ...rateLimitHeaders(),
              ...(change ? { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') } : {}),
            },
          };
      for (const name of names.sort((a, b) => errorResponses[a][0] - errorResponses[b][0]))
        responses[String(errorResponses[name][0])] = ref(name);
      op.responses = responses;

      // A parameter a request names: the required ones and those a person would send (a search, a limit, a kind).
      for (const parameter of op.parameters ?? [])
        if (
          !('$ref' in parameter) &&
          parameter.schema &&
          !('example' in parameter) &&
          (parameter.required ||
            hinted(parameter.name) ||
            parameter.schema.default !== undefined ||
            parameter.schema.enum ||
            'example' in parameter.schema)
        )
          parameter.example = exampleOf(parameter.schema, parameter.name, true);
      if (change) (op.parameters ??= []).push({ $ref: '#/components/parameters/IdempotencyKey' });
      const body = op.requestBody?.content?.['application/json'];
      if (body?.schema && !('example' in body)) body.example = exampleOf(body.schema, '', true);
      const answer = op.responses['200']?.content?.['application/json'];
      if (answer?.schema && !('example' in answer)) answer.example = exampleOf(answer.schema);
    }
  }
  addWebhooks(doc);
}
