// Checks an answer of the REST paths against the published OpenAPI document (GET /api/openapi.json, built here
// the way the server builds it): the operation found by method and path template, its status documented, the
// JSON body fitting that status's schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 says) and each documented
// header present when required and of its type. tests/helpers/openapi-setup.ts applies it to every answer.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { openApi } from '#server/http/openapi.ts';
import type { Services } from '#server/services.ts';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The document as GET /api/openapi.json serves it (only the config's appUrl and cookie flag are read). */
export function publishedDocument(appUrl = 'http://localhost:3000'): Json {
  return openApi({ config: { appUrl, secureCookies: false } } as unknown as Services) as Json;
}

/** Under /api but not the REST door: tRPC, the event stream, the document itself, the Remix invoice download. */
const NOT_REST = /^\/api\/(trpc|sse|openapi\.json|docs|export)(\/|$)/;

export type Answer = {
  method: string;
  /** The URL's path, e.g. /api/sim/42 (a query is ignored). */
  path: string;
  status: number;
  headers: Headers | Record<string, string>;
  /** The body's text ('' for none). */
  body: string;
};

type Template = { path: string; re: RegExp; literal: number };

export type OpenApiValidator = {
  /** The document's path and operation of a request, or null when it is no REST operation of the document. */
  operationOf: (method: string, path: string) => { path: string; method: string; op: Json } | null;
  /** The mismatches of one answer with the document ([] when it fits, or it is no REST operation). */
  check: (answer: Answer) => string[];
};

/** A validator of answers against a document (the published one unless given). */
export function openApiValidator(doc: Json = publishedDocument()): OpenApiValidator {
  const templates: Template[] = Object.keys(doc.paths ?? {})
    .map((path) => ({
      path,
      // As the REST door matches: case-insensitive, a trailing slash ignored, a parameter one segment.
      re: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i'),
      literal: path.replace(/\{\w+\}/g, '').length,
    }))
    // The most literal first: /sim/all before /sim/{id}.
    .sort((a, b) => b.literal - a.literal);

  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  const compiled = new WeakMap<object, ValidateFunction>();
  const validatorOf = (schema: Json) => {
    let v = compiled.get(schema);
    if (!v) {
      v = ajv.compile({ ...schema, components: doc.components });
      compiled.set(schema, v);
    }
    return v;
  };
  const resolve = (node: Json): Json => {
    if (typeof node?.$ref !== 'string') return node;
    return node.$ref
      .slice(2)
      .split('/')
      .reduce((at: Json, key: string) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  };

  function operationOf(method: string, path: string) {
    if (!path.startsWith('/api/') || NOT_REST.test(path)) return null;
    const rest = path.slice('/api'.length);
    const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    if (!METHODS.includes(m)) return null;
    for (const t of templates) {
      if (!t.re.test(rest)) continue;
      const op = doc.paths[t.path]?.[m];
      if (op) return { path: t.path, method: m, op: op as Json };
    }
    return null;
  }

  function check(answer: Answer): string[] {
    const found = operationOf(answer.method, answer.path);
    if (!found) return [];
    const at = `${answer.method.toUpperCase()} ${answer.path} → ${answer.status}`;
    const documented = found.op.responses?.[String(answer.status)];
    if (!documented)
      return [
        `${at}: status not documented for ${found.method.toUpperCase()} ${found.path} (has ${Object.keys(found.op.responses ?? {}).join(', ')})${answer.body ? `; body ${answer.body.slice(0, 300)}` : ''}`,
      ];
    const response = resolve(documented);
    const problems: string[] = [];
    const header = (name: string) =>
      answer.headers instanceof Headers
        ? answer.headers.get(name)
        : (Object.entries(answer.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? null);

    for (const [name, declared] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const h = resolve(declared);
      const value = header(name);
      if (value === null) {
        if (h.required) problems.push(`${at}: required header ${name} missing`);
        continue;
      }
      const type = resolve(h.schema ?? {}).type;
      if (type === 'integer' && !/^-?\d+$/.test(value))
        problems.push(`${at}: header ${name} is not an integer: ${value}`);
      if (type === 'boolean' && !/^(true|false)$/.test(value)) problems.push(`${at}: header ${name} is not a boolean`);
      const schema = resolve(h.schema ?? {});
      if (schema.enum && !schema.enum.includes(value))
        problems.push(`${at}: header ${name} is ${value}, not one of ${schema.enum.join(', ')}`);
    }

    if (answer.method.toUpperCase() === 'HEAD') return problems;
    const content = response.content as Record<string, Json> | undefined;
    const json = content?.['application/json'];
    if (!json?.schema) return problems;
    const type = header('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) return [...problems, `${at}: not JSON (Content-Type ${type || 'none'})`];
    let data: unknown;
    try {
      data = JSON.parse(answer.body);
    } catch {
      return [...problems, `${at}: malformed JSON ${answer.body.slice(0, 200)}`];
    }
    const validate = validatorOf(json.schema as Json);
    if (!validate(data))
      problems.push(
        `${at}: body does not fit ${found.method.toUpperCase()} ${found.path} ${answer.status}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}; body ${JSON.stringify(data).slice(0, 300)}`,
      );
    return problems;
  }

  return { operationOf, check };
}
