// usage:import in its own process beside a running portal on PostgreSQL (issues 39 and 40): the company's open
// pages are told of the new usage, and a rule with toasts that the file's records fire shows its toast in the
// company's signed-in tabs, as the REST door does (through PostgreSQL's NOTIFY: an embedded database has no other
// process to tell, so this needs PostgreSQL).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Company, Rule, Sim, User } from '#server/db/entities.ts';
import { changeTags } from '#server/sims/tags.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { needs } from '#tests/helpers/needs.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { openStream } from '#tests/helpers/sse.ts';

const portal = useScreens({ browser: false });
const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

needs(it, 'PostgreSQL')(
  'tells the company’s open pages of the usage and shows its rule’s toast',
  { timeout: 120_000 },
  async () => {
    const db = portal.server.db;
    if (db.kind !== 'postgres') throw new Error('needs PostgreSQL');
    const em = portal.server.services.orm.em.fork();
    const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
    const owner = await em.findOneOrFail(User, { company: demo, role: 'owner' }, { orderBy: { id: 'asc' } });
    const sim = await em.findOneOrFail(Sim, { company: demo, status: 'active' }, { orderBy: { id: 'desc' } });
    await changeTags(em, demo.id, { ids: [sim.id], add: ['Direktimport'], remove: [] });
    em.create(Rule, {
      company: demo,
      name: 'Direktimport över 1 kB',
      target: 'tag',
      targetTag: 'Direktimport',
      condition: 'month_bytes',
      threshold: 1000,
      notifyToast: true,
    });
    await em.flush();
    const stream = await openStream(portal.server.url, await portal.server.sessionCookie(owner.email));
    try {
      await stream.waitFor(/retry:|:/);
      const start = new Date(Date.now() - 10 * 60_000);
      const file = path.join(dir, 'usage.csv');
      writeFileSync(
        file,
        'recordId,iccid,start,end,bytesUp,bytesDown\n' +
          `live-1,${sim.iccid},${start.toISOString()},${new Date(start.getTime() + 60_000).toISOString()},600,600\n`,
      );
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' };
      const run = await runCli(env, ['usage:import', file, '--source', 'cli-live'], 90_000);
      expect(run.code, run.err).toBe(0);
      expect(run.out).toContain('taken 1');
      await stream.waitFor(/event: usage/);
      await stream.waitFor(/Direktimport över 1 kB/);
      expect(stream.text()).toMatch(/Slog till för 1 SIM-kort/);
    } finally {
      await stream.close();
    }
  },
);
