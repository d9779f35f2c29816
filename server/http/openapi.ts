// GET /api/openapi.json: the OpenAPI 3.1 document of the REST paths, generated from the router's procedures by
// trpc-to-openapi (its public generateOpenApiDocument), with each operation's key (its procedure's meta), the list's
// Link header, and the real error answers and examples (./openapi-document.ts). Made once.
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { cookieName } from '#server/auth/sessions.ts';
import type { Services } from '#server/services.ts';
import { listExportOpenApi } from '#server/sims/list-file.ts';
import { appRouter } from '#server/trpc/router.ts';
import { madeOnce, type MadeOnce } from './made-once.ts';
import { exactDocument } from './openapi-document.ts';
import { restScopes } from './rest-routes.ts';

type Operation = { description?: string; security?: unknown[]; 'x-required-scope'?: string | null };

let openApiDocument: unknown = null;
/** GET /api/openapi.json: the OpenAPI 3.1 document generated from the router, made once. */
export function openApi(services: Services) {
  if (openApiDocument) return openApiDocument;
  const doc = generateOpenApiDocument(appRouter, {
    title: 'SIM-portalen API',
    description:
      'The REST paths of the SIM portal. Authentication: the session cookie from the e-mail link login (/auth/login, /auth/magic), or an API key of the company (`Authorization: Bearer sp_...`, created by an owner under /company/api-keys; never both in one request). Each operation names the key scope it needs in `x-required-scope` (read, write, network: the network integration key, or null: no key). Errors: { error, issues }.',
    version: '1.0.0',
    baseUrl: `${services.config.appUrl}/api`,
    paths: listExportOpenApi,
    securitySchemes: {
      apiKey: { type: 'http', scheme: 'bearer', description: 'An API key of the company: sp_ and 43 characters.' },
      networkKey: {
        type: 'http',
        scheme: 'bearer',
        description:
          "The network's integration key, made by a super admin: sn_ and 43 characters. It can only send usage (POST /network/usage).",
      },
      session: {
        type: 'apiKey',
        in: 'cookie',
        name: cookieName(services.config.secureCookies),
        description: 'The session cookie.',
      },
    },
  });
  // Each operation: who may call it, and with which key scope.
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (typeof op !== 'object' || op === null || !/^(get|post|put|patch|delete)$/.test(method)) continue;
      const scope = restScopes.get(`${method.toUpperCase()} ${path}`) ?? null;
      op['x-required-scope'] = scope;
      op.security =
        scope === 'network' ? [{ networkKey: [] }] : scope ? [{ session: [] }, { apiKey: [scope] }] : [{ session: [] }];
      const note =
        scope === 'network'
          ? 'Network integration key only.'
          : scope
            ? `API key scope: ${scope}.`
            : 'No API key (session only).';
      op.description = op.description ? `${op.description} ${note}` : note;
    }
  }
  // The lists' next page, in a header (the body stays a plain array): the SIMs' and the company's usage.
  for (const path of ['/sim/all', '/usage']) {
    const list = (doc.paths?.[path] as Record<string, { responses?: Record<string, Record<string, unknown>> }>)?.get
      ?.responses?.['200'];
    if (list)
      list.headers = {
        Link: {
          description: `Present when there is a next page: \`<https://…/api${path}?…&cursor=…>; rel="next"\` (RFC 8288). Follow it as it is; the cursor is opaque.`,
          schema: { type: 'string' },
        },
      };
  }
  // The real error answers and statuses, and examples (server/http/openapi-document.ts).
  exactDocument(doc);
  openApiDocument = doc;
  return openApiDocument;
}

let openApiMade: MadeOnce | undefined;
/**
 * GET /api/openapi.json's answer: the document serialized and compressed once (server/http/made-once.ts), not per
 * request: about 5.5 ms of CPU each before, for anyone who asks.
 */
export function openApiAnswer(services: Services): MadeOnce {
  return (openApiMade ??= madeOnce(Buffer.from(JSON.stringify(openApi(services)))));
}
