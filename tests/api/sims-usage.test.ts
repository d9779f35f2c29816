// The usage object on each SIM of GET /api/sim/all and GET /api/sim/{id} (issue 39): this Swedish month's bytes up,
// down and both, the last sighting (ISO 8601 UTC, network, country) and the company's asOf; zero and null for a SIM
// never seen. Every answer is held to the OpenAPI document (tests/helpers/openapi-setup.ts checks each fetch).
import { beforeAll, describe, expect, it } from 'vitest';
import { Company } from '#server/db/entities.ts';
import { monthOf } from '#server/sims/views.ts';
import { ensurePartitions, partitionOf } from '#server/usage/partitions.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { clear } from '#tests/helpers/usage.ts';

const portal = useScreens({ browser: false });
let cookie = '';
let seenId = 0;
let neverId = 0;
const AT = new Date(Date.now() - 5 * 60_000);

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  await clear(em);
  const month = monthOf(new Date());
  await ensurePartitions(em, [partitionOf('usage_month', month)]);
  const sims = await em.execute<Array<{ id: number }>>(
    `select id from sim where company_id = ? and status = 'active' order by id limit 2`,
    [demo.id],
  );
  seenId = Number(sims[0]?.id);
  neverId = Number(sims[1]?.id);
  await em.execute(
    `insert into usage_month (company_id, sim_id, month, bytes_up, bytes_down, records) values (?, ?, ?, 1000, 250000, 3)`,
    [demo.id, seenId, month],
  );
  await em.execute(
    `insert into usage_last_seen (company_id, sim_id, at, network, country) values (?, ?, ?, '24001', 'SE')`,
    [demo.id, seenId, AT],
  );
  cookie = await portal.server.sessionCookie('anna@demo.test');
});

const get = async (path: string) => {
  const res = await fetch(portal.server.url + path, { headers: { cookie } });
  expect(res.status).toBe(200);
  return res.json();
};

describe('usage on each SIM', () => {
  it('GET /api/sim/all and /api/sim/{id}: the month in bytes, the last sighting, asOf', async () => {
    const want = {
      month: monthOf(new Date()).slice(0, 7),
      monthBytesUp: 1000,
      monthBytesDown: 250000,
      monthBytes: 251000,
      lastSeenAt: AT.toISOString(),
      lastSeenNetwork: '24001',
      lastSeenCountry: 'SE',
      asOf: AT.toISOString(),
    };
    const list = (await get('/api/sim/all?limit=50')) as Array<{ id: number; usage: unknown }>;
    expect(list.find((s) => s.id === seenId)?.usage).toEqual(want);
    expect(list.find((s) => s.id === neverId)?.usage).toEqual({
      ...want,
      monthBytesUp: 0,
      monthBytesDown: 0,
      monthBytes: 0,
      lastSeenAt: null,
      lastSeenNetwork: null,
      lastSeenCountry: null,
    });
    expect((await get(`/api/sim/${seenId}`)).usage).toEqual(want);
  });
});
