// Long: one OpenAPI description per webhook event type, kept in one table beside the schema they share.
// The webhooks the portal sends, as OpenAPI 3.1 `webhooks`: one POST per event type with its payload as the code
// builds it (server/webhooks/deliver.ts deliveryBody; the data of each type from server/sims/*.ts and
// server/webhooks/endpoints.ts), the signature header as server/webhooks/post.ts makes it, the answer the
// sender waits for and its retries (deliver.ts). tests/api/openapi-contract.test.ts checks a real delivery
// against it; tests/unit/openapi-webhooks.test.ts the defaults named here against the configuration.
import { defined } from '#domain/defined.ts';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '#domain/webhooks/events.ts';
import { backoffMs, SECRET_OVERLAP_MS } from '#server/webhooks/deliver.ts';

type Json = Record<string, unknown>;

/** The defaults of the delivery settings (server/config.ts WEBHOOK_*), as the document states them. */
export const WEBHOOK_DEFAULTS = { timeoutMs: 10_000, backoffMs: 10_000, retryForMs: 86_400_000 } as const;

/** A duration in words: 10 s, 5 min, 1 h, 24 h. */
function inWords(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

/** The waits before the 2nd, 3rd ... attempt at the defaults (the last one repeats). */
export const RETRY_SCHEDULE = [1, 2, 3, 4, 5, 6, 7].map((n) => inWords(backoffMs(n, WEBHOOK_DEFAULTS.backoffMs)));

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const iccid = { type: 'string', pattern: '^[0-9]{19,20}$', description: 'The ICCID, digits only.' };
const simId = { type: 'integer', description: "The SIM's id (GET /api/sim/{id})." };
const isoTime = (what: string) => ({
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
  description: `${what}, UTC with milliseconds (ISO 8601).`,
});
const simRef = {
  type: 'object',
  properties: { id: simId, iccid },
  required: ['id', 'iccid'],
  additionalProperties: false,
};
/** The fields a SIM change may change, each in `before` and `after` only when it changed. */
const changedFields = (when: string) => ({
  type: 'object',
  description: `The changed fields ${when} the change (only those that changed).`,
  properties: {
    ratePlan: { type: 'string', description: "The rate plan's code." },
    invoiceLineMark: { type: 'string' },
    invoiceLineNote: { type: 'string' },
  },
  additionalProperties: false,
});

const EXAMPLE_ICCID = '89460712345678901230';
const EXAMPLE_TIME = '2026-03-01T09:30:00.000Z';

/** The rule of a firing's event. */
const ruleRef = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: "The rule's id (GET /api/company/rules)." },
    name: { type: 'string' },
  },
  required: ['id', 'name'],
  additionalProperties: false,
};
const simTags = { type: 'array', items: { type: 'string' }, description: "The SIM's tags, in code point order." };
/** The SIM of an event, with its tags (a firing's, sim.updated's). */
const taggedSim = {
  type: 'object',
  properties: {
    id: simId,
    iccid,
    tags: simTags,
  },
  required: ['id', 'iccid', 'tags'],
  additionalProperties: false,
};

/** sim.paused and sim.resumed (issue 40): the SIM, when, who did it, and its tags. */
function pauseEvent(kind: 'paused' | 'resumed') {
  const at = kind === 'paused' ? 'pausedAt' : 'resumedAt';
  return {
    summary: kind === 'paused' ? 'A SIM was paused' : 'A paused SIM was resumed',
    description:
      kind === 'paused'
        ? 'One event per SIM paused (POST /api/sim/pause/{id}, POST /api/sim/bulk/pause, the pages, or a rule that pauses): it keeps its number and plan but carries no data. A SIM already paused sends none.'
        : 'One event per paused SIM resumed (POST /api/sim/resume/{id}, POST /api/sim/bulk/resume, the pages). A SIM that was not paused sends none.',
    data: {
      type: 'object',
      properties: {
        sim: {
          type: 'object',
          properties: {
            id: simId,
            iccid,
            [at]: isoTime(kind === 'paused' ? 'When it was paused' : 'When it was resumed'),
            by: {
              type: 'object',
              description:
                'Who did it: a person (user), an API key (apiKey) or a rule of the company (rule), by its name then.',
              properties: { kind: { type: 'string', enum: ['user', 'apiKey', 'rule'] }, name: { type: 'string' } },
              required: ['kind', 'name'],
              additionalProperties: false,
            },
            tags: simTags,
          },
          required: ['id', 'iccid', at, 'by', 'tags'],
          additionalProperties: false,
        },
      },
      required: ['sim'],
      additionalProperties: false,
    },
    example: {
      sim: {
        id: 42,
        iccid: EXAMPLE_ICCID,
        [at]: EXAMPLE_TIME,
        by: { kind: 'rule', name: 'Över 90 %' },
        tags: ['Kylbilar'],
      },
    },
  };
}

/** Each event type: what it reports, its `data` and an example of it. */
const EVENTS: Record<string, { summary: string; description: string; data: Json; example: Json }> = {
  'sim.activated': {
    summary: 'A SIM was activated',
    description:
      'One event per activated SIM: a single activation (POST /api/sim, the pages) and each activated row of a bulk list.',
    data: {
      type: 'object',
      properties: {
        sim: {
          type: 'object',
          properties: {
            id: simId,
            iccid,
            activatedAt: isoTime('When it was activated'),
            ratePlan: { type: 'string', description: "The rate plan's code." },
            invoiceLineMark: { type: 'string' },
            invoiceLineNote: { type: 'string' },
            tags: {
              type: 'array',
              items: { type: 'string' },
              description: 'The tags it was activated with (issue 40), in code point order; [] when none.',
            },
          },
          required: ['id', 'iccid', 'activatedAt', 'ratePlan', 'invoiceLineMark', 'invoiceLineNote', 'tags'],
          additionalProperties: false,
        },
      },
      required: ['sim'],
      additionalProperties: false,
    },
    example: {
      sim: {
        id: 42,
        iccid: EXAMPLE_ICCID,
        activatedAt: EXAMPLE_TIME,
        ratePlan: 'DATA5',
        invoiceLineMark: 'Lastbil 12',
        invoiceLineNote: 'Förare: Erik',
        tags: ['Göteborg', 'Lastbilar'],
      },
    },
  },
  'sim.updated': {
    summary: "A SIM's plan, mark or note changed",
    description: 'PUT /api/sim/edit (or the page) changed at least one field; an edit that changes nothing sends none.',
    data: {
      type: 'object',
      properties: {
        sim: taggedSim,
        before: changedFields('before'),
        after: { ...changedFields('after'), minProperties: 1 },
      },
      required: ['sim', 'before', 'after'],
      additionalProperties: false,
    },
    example: {
      sim: { id: 42, iccid: EXAMPLE_ICCID, tags: ['Lastbilar'] },
      before: { invoiceLineMark: 'Lastbil 12' },
      after: { invoiceLineMark: 'Lastbil 14' },
    },
  },
  'sim.deactivated': {
    summary: 'A SIM was deactivated',
    description: 'One event per deactivated SIM: a single deactivation and each deactivated id of a bulk list.',
    data: {
      type: 'object',
      properties: {
        sim: {
          type: 'object',
          properties: {
            id: simId,
            iccid,
            deactivatedAt: isoTime('When it was deactivated'),
            tags: simTags,
          },
          required: ['id', 'iccid', 'deactivatedAt', 'tags'],
          additionalProperties: false,
        },
      },
      required: ['sim'],
      additionalProperties: false,
    },
    example: { sim: { id: 42, iccid: EXAMPLE_ICCID, deactivatedAt: EXAMPLE_TIME, tags: ['Lastbilar'] } },
  },
  'sim.paused': pauseEvent('paused'),
  'sim.resumed': pauseEvent('resumed'),
  'bulk.completed': {
    summary: 'A bulk list changed SIMs',
    description:
      'One event per bulk statement that changed at least one SIM (POST /api/sim/bulk, POST /api/sim/bulk/deactivate), besides the per-SIM events: the SIMs it changed, in ICCID order. A dry run or a list that changed nothing sends none.',
    data: {
      type: 'object',
      properties: {
        operation: { type: 'string', enum: ['activate', 'deactivate'] },
        count: { type: 'integer', minimum: 1, description: 'How many SIMs it changed (the length of sims).' },
        sims: { type: 'array', minItems: 1, items: simRef },
      },
      required: ['operation', 'count', 'sims'],
      additionalProperties: false,
    },
    example: { operation: 'activate', count: 1, sims: [{ id: 42, iccid: EXAMPLE_ICCID }] },
  },
  'usage.threshold_reached': {
    summary: "A company's usage rule fired for a SIM",
    description:
      'One event per SIM and period a rule that sends webhooks fired for (issue 40): its usage this month passed a share of the plan or an amount, or one day passed an amount. Sent from the ingest batch that crossed the threshold, once per rule, SIM and period (month: YYYY-MM, day: YYYY-MM-DD, Europe/Stockholm); a rule that pauses sends sim.paused too.',
    data: {
      type: 'object',
      properties: {
        rule: ruleRef,
        sim: taggedSim,
        condition: { type: 'string', enum: ['month_share', 'month_bytes', 'day_bytes'] },
        threshold: {
          type: 'integer',
          description: "month_share: percent of the plan's data amount; month_bytes and day_bytes: bytes.",
        },
        period: { type: 'string', description: 'The month (YYYY-MM) or day (YYYY-MM-DD) whose usage crossed it.' },
        value: { type: 'integer', description: "The period's usage in bytes when it fired." },
        dataLimitMb: { type: 'integer', description: "The SIM's plan's data amount in MB." },
        firedAt: isoTime('When it fired'),
      },
      required: ['rule', 'sim', 'condition', 'threshold', 'period', 'value', 'dataLimitMb', 'firedAt'],
      additionalProperties: false,
    },
    example: {
      rule: { id: 3, name: 'Över 80 %' },
      sim: { id: 42, iccid: EXAMPLE_ICCID, tags: ['Kylbilar'] },
      condition: 'month_share',
      threshold: 80,
      period: '2026-03',
      value: 4_100_000_000,
      dataLimitMb: 5000,
      firedAt: EXAMPLE_TIME,
    },
  },
  'sim.silent': {
    summary: 'A SIM has been silent longer than a rule allows',
    description:
      'One event per SIM a silence rule that sends webhooks fired for (issue 40): no usage record has ended for the number of minutes of the rule since its last traffic. Sent within 5 minutes of the deadline, once per silence (again after traffic came back and stopped). A SIM never seen is not silent.',
    data: {
      type: 'object',
      properties: {
        rule: ruleRef,
        sim: taggedSim,
        lastSeenAt: isoTime('The end of its last usage record'),
        silentMinutes: { type: 'integer', description: "The rule's silence, in minutes." },
        firedAt: isoTime('When it fired'),
      },
      required: ['rule', 'sim', 'lastSeenAt', 'silentMinutes', 'firedAt'],
      additionalProperties: false,
    },
    example: {
      rule: { id: 4, name: 'Tyst ett dygn' },
      sim: { id: 42, iccid: EXAMPLE_ICCID, tags: [] },
      lastSeenAt: EXAMPLE_TIME,
      silentMinutes: 1440,
      firedAt: EXAMPLE_TIME,
    },
  },
  [WEBHOOK_TEST_EVENT]: {
    summary: 'A test event',
    description:
      'Sent to one endpoint when an owner asks for it ("Skicka testhändelse", POST /api/company/webhooks/test/{id}); not subscribable, sent whatever the endpoint subscribes to.',
    data: {
      type: 'object',
      properties: {
        endpointId: { type: 'integer', description: 'The endpoint it was sent to.' },
        message: { type: 'string' },
      },
      required: ['endpointId', 'message'],
      additionalProperties: false,
    },
    example: { endpointId: 7, message: 'Testhändelse från SIM-portalen' },
  },
};

/** The schema name of an event type's payload: sim.activated → WebhookSimActivated. */
export const webhookSchemaName = (type: string) =>
  `Webhook${type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}`;

const overlapHours = SECRET_OVERLAP_MS / 3_600_000;

const SIGNATURE_DESCRIPTION = [
  "`t=<unix seconds>,v1=<hex HMAC-SHA256>`: the HMAC, keyed with the endpoint's secret (the `whsec_...` text as it is), of `\"<t>.<raw body>\"`, made at each attempt (so `t` is the attempt's time, not the event's).",
  `After a rotation the previous secret signs too for ${overlapHours} h: then the header holds two \`v1\`, the new secret's first. Accept the delivery if any \`v1\` matches.`,
  'To verify: compute the HMAC over the raw body before parsing it, compare in constant time, and reject a `t` more than 5 minutes from your clock (a replay); then de-duplicate by the body\'s `id`. docs/api.md ("Verifying a webhook") has a snippet the tests run against real deliveries.',
].join(' ');

/** Components the webhooks refer to: the payload schemas and the signature header. */
function webhookComponents(): { schemas: Record<string, Json>; parameters: Record<string, Json> } {
  const schemas: Record<string, Json> = {};
  for (const [type, event] of Object.entries(EVENTS))
    schemas[webhookSchemaName(type)] = {
      type: 'object',
      description: `The body of a \`${type}\` delivery. ${event.description}`,
      properties: {
        id: {
          type: 'string',
          format: 'uuid',
          description: 'The event id: the same on every attempt of it, to de-duplicate by (delivery is at least once).',
        },
        type: { type: 'string', const: type },
        createdAt: isoTime('When the change happened'),
        companyId: { type: 'integer', description: 'The company whose SIMs changed.' },
        data: event.data,
      },
      required: ['id', 'type', 'createdAt', 'companyId', 'data'],
      additionalProperties: false,
    };
  const parameters: Record<string, Json> = {
    WebhookSignature: {
      name: 'X-Sim-Portal-Signature',
      in: 'header',
      required: true,
      description: SIGNATURE_DESCRIPTION,
      schema: { type: 'string', pattern: '^t=[0-9]+(,v1=[0-9a-f]{64}){1,2}$' },
      example: 't=1772357400,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
    },
    WebhookUserAgent: {
      name: 'User-Agent',
      in: 'header',
      required: true,
      description: 'Who sends it.',
      schema: { type: 'string', const: 'SIM-portalen-webhooks/1' },
    },
  };
  return { schemas, parameters };
}

const schedule = `${RETRY_SCHEDULE.slice(0, -1).join(', ')}, then every ${RETRY_SCHEDULE.at(-1)}`;

/** What the sender waits for, how it retries and when it gives up (server/webhooks/deliver.ts, post.ts). */
export const DELIVERY_DESCRIPTION = [
  `Each delivery is one POST of JSON to the endpoint's https URL (only public addresses; checked again after DNS resolution at every attempt). Answer any 2xx within the timeout (WEBHOOK_TIMEOUT_MS, ${inWords(WEBHOOK_DEFAULTS.timeoutMs)} from connecting to the answer's status line): the body of the answer is not read and redirects are not followed.`,
  `Anything else (another status, a redirect, a timeout, a refused or reset connection) is retried with backoff, the waits at the defaults (WEBHOOK_BACKOFF_MS ${inWords(WEBHOOK_DEFAULTS.backoffMs)} the first step): ${schedule}; an endpoint that fails waits as a whole by the same steps, so its later events wait too. A delivery whose next attempt would come later than WEBHOOK_RETRY_FOR_MS (${inWords(WEBHOOK_DEFAULTS.retryForMs)}) after the event is given up (failed, shown on /company/webhooks).`,
  'Delivery is at least once and in no promised order: de-duplicate by `id`, and order by `createdAt` if you must.',
].join(' ');

/**
 * Adds `webhooks` (one POST per event type the portal sends) and their components to the document.
 */
export function addWebhooks(doc: Json & { components?: Json }): void {
  const components = (doc.components ??= {}) as Record<string, Record<string, unknown>>;
  const { schemas, parameters } = webhookComponents();
  Object.assign((components.schemas ??= {}), schemas);
  Object.assign((components.parameters ??= {}), parameters);
  const webhooks: Json = {};
  const types = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT];
  for (const type of types) {
    const event = defined(EVENTS[type], `the description of the event ${type}`);
    webhooks[type] = {
      post: {
        operationId: `webhook-${type.replace('.', '-')}`,
        summary: event.summary,
        description: `${event.description} ${DELIVERY_DESCRIPTION}`,
        tags: ['webhooks'],
        parameters: [
          { $ref: '#/components/parameters/WebhookSignature' },
          { $ref: '#/components/parameters/WebhookUserAgent' },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: schemaRef(webhookSchemaName(type)),
              example: {
                id: '0b7f6c1e-3a2d-4e5f-8a9b-1c2d3e4f5a6b',
                type,
                createdAt: EXAMPLE_TIME,
                companyId: 3,
                data: event.example,
              },
            },
          },
        },
        responses: {
          '2XX': {
            description: `Delivered: any 2xx within ${inWords(WEBHOOK_DEFAULTS.timeoutMs)}; its body is ignored.`,
          },
          '4XX': { description: `Not delivered: retried (${schedule}) for ${inWords(WEBHOOK_DEFAULTS.retryForMs)}.` },
          '5XX': { description: `Not delivered: retried (${schedule}) for ${inWords(WEBHOOK_DEFAULTS.retryForMs)}.` },
        },
        security: [],
      },
    };
  }
  doc.webhooks = webhooks;
}
