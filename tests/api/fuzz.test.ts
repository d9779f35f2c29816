// Property test: random JSON bodies and query strings to every REST path never give a 500, always give
// the error shape when refused, and a refused request changes nothing in the database.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AuditEvent, Company, Feedback, Sim, SimEvent, User } from '#server/db/entities.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
let user: string;
let admin: string;

beforeAll(async () => {
  user = await portal.server.sessionCookie('anna@demo.test');
  admin = await portal.server.sessionCookie('admin@demo.test');
});

const paths: Array<[string, string]> = [
  ['GET', '/api/rate_plans'],
  ['POST', '/api/sim'],
  ['GET', '/api/sim/all'],
  ['GET', '/api/sim/1'],
  ['PUT', '/api/sim/edit/'],
  ['POST', '/api/sim/deactivate/1'],
  ['POST', '/api/sim/bulk'],
  ['POST', '/api/sim/bulk/deactivate'],
  ['POST', '/api/feedback'],
  ['GET', '/api/admin/getCompanies'],
  ['POST', '/api/admin/createCompany'],
  ['GET', '/api/admin/getCompany/1'],
  ['PUT', '/api/admin/updateCompany'],
  ['POST', '/api/admin/loginAsCompany/'],
  ['POST', '/api/admin/createUser'],
  ['GET', '/api/admin/getUser/1'],
  ['PUT', '/api/admin/updateUser'],
];

// What zod and the adapters say in English: any of it in an answer means a message that is not ours.
const ENGLISH =
  /\b(invalid|expected|received|too small|too big|required|unrecognized|must|should|characters|input|option|string|number|boolean|undefined|nan|object|array)\b/i;

async function counts() {
  const em = portal.server.services.orm.em.fork();
  return Promise.all([
    em.count(Sim),
    em.count(SimEvent),
    em.count(Company),
    em.count(User),
    em.count(Feedback),
    em.count(AuditEvent),
  ]);
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const fieldNames = fc.constantFrom(
  'iccid',
  'iccids',
  'ids',
  'dryRun',
  'dataLimit',
  'callAndSms',
  'roaming',
  'invoiceLineMark',
  'invoiceLineNote',
  'id',
  'name',
  'email',
  'companyId',
  'customerNumber',
  'invoiceNote',
  'invoiceInterval',
  'message',
  'isSuperAdmin',
  'isCompanyOwner',
  'q',
  'limit',
  'offset',
);
const body = fc.oneof(jsonValue, fc.dictionary(fieldNames, jsonValue, { maxKeys: 8 }));
const query = fc.dictionary(fieldNames, fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String)), {
  maxKeys: 4,
});

describe('random input to every REST path', () => {
  for (const [method, path] of paths) {
    it(`${method} ${path}`, async () => {
      await fc.assert(
        fc.asyncProperty(body, query, fc.boolean(), async (payload, q, asAdmin) => {
          const before = await counts();
          const url = new URL(portal.server.url + path);
          for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
          const res = await fetch(url, {
            method,
            headers: { cookie: asAdmin ? admin : user, 'content-type': 'application/json' },
            body: method === 'GET' ? undefined : JSON.stringify(payload),
          });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) {
            const data = await res.json();
            expect(typeof data.error).toBe('string');
            for (const message of [data.error, ...data.issues.map((i: { message: string }) => i.message)])
              expect(message).not.toMatch(ENGLISH);
            expect(Array.isArray(data.issues)).toBe(true);
            expect(await counts()).toEqual(before);
          } else {
            await res.arrayBuffer();
          }
        }),
        { numRuns: 25 },
      );
    });
  }
});
