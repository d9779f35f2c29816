// Procedures through createCaller, as a given user, on services with a fresh database (no HTTP).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findSession } from '#server/auth/sessions.ts';
import { signedInSession, type SignInOptions } from './signed-in.ts';
import { loadConfig } from '#server/config.ts';
import { User } from '#server/db/entities.ts';
import { seedDemo } from '#server/db/seed.ts';
import { closeServices, createServices, type Services } from '#server/services.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { createContextInner } from '#server/trpc/context.ts';
import { freshDatabase } from './db.ts';

export async function startServices(opts: { seed?: boolean; env?: Record<string, string> } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-services-'));
  const db = await freshDatabase();
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...opts.env });
  const services = await createServices(config, { db: db.target });
  if (opts.seed !== false) await seedDemo(services.orm.em.fork());
  return {
    services,
    async stop() {
      await closeServices(services);
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A caller acting as the user with this e-mail (optionally acting as another company); null: anonymous. */
export async function callerFor(
  services: Services,
  email: string | null,
  actingCompanyId?: number,
  opts: SignInOptions = {},
) {
  if (!email) return createCaller(createContextInner({ services }));
  const em = services.orm.em.fork();
  const user = await em.findOneOrFail(User, { email });
  const raw = await signedInSession(em, user.id, { actingCompanyId: actingCompanyId ?? null, ...opts });
  const session = await findSession(services.orm.em.fork(), raw);
  return createCaller(createContextInner({ services, session }));
}

/**
 * `n` SIMs activated by the user with this e-mail, marked "`mark` 0", "`mark` 1", …: newest first, as /sims lists
 * them. `iccid` makes each ICCID (tests/helpers/iccid.ts iccidFactory, a prefix of the test's own).
 */
export async function activatedSims(
  services: Services,
  email: string,
  mark: string,
  n: number,
  iccid: () => string,
): Promise<Array<{ id: number; iccid: string }>> {
  const caller = await callerFor(services, email);
  const made = [];
  for (let i = 0; i < n; i++) {
    const value = iccid();
    const { id } = await caller.sim.activate({
      iccid: value,
      invoiceLineMark: `${mark} ${i}`,
      invoiceLineNote: '',
      dataLimit: 1000,
      callAndSms: false,
      roaming: false,
    });
    made.push({ id, iccid: value });
  }
  return made.reverse();
}
