// `npm run cli -- usage:simulate --once` against a running built portal (issue 39): it finds the demo's network
// key where the first start's seed wrote it (DATA_DIR/demo-network-key, readable by its owner only), posts one
// batch "now" for the demo's live SIMs through POST /api/network/usage, prints the answer's counts, and the usage is
// stored; without a key it says how to get one.
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveDemoSims } from '#server/db/demo-sims.ts';
import { DEMO_KEY_FILE, DEMO_SOURCE } from '#server/usage/demo.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
const em = () => portal.server.services.orm.em.fork();

const cliEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...extra };
  delete env.DATABASE_URL;
  delete env.NETWORK_KEY;
  return env;
};

describe('npm run cli -- usage:simulate', () => {
  it('sends one batch for the live demo SIMs through the REST door with the demo key, and it is stored', async () => {
    const file = path.join(portal.server.dataDir, DEMO_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const keys = await em().execute<Array<{ name: string }>>(`select name from network_key where revoked_at is null`);
    expect(keys.map((k) => k.name)).toContain(DEMO_SOURCE);
    const before = await em().execute<Array<{ n: string }>>(`select count(*) as n from usage_record`);

    const run = await runCli(
      cliEnv({ DATA_DIR: portal.server.dataDir }),
      ['usage:simulate', '--once', '--url', portal.server.url],
      120_000,
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const live = liveDemoSims().length;
    expect(run.out).toMatch(
      new RegExp(`sent ${live} records \\(.+\\): taken ${live}, duplicates 0, unknown ICCID 0, refused 0`),
    );
    const rows = await em().execute<Array<{ iccid: string; source: string }>>(
      `select s.iccid, r.source from usage_record r join sim s on s.id = r.sim_id
       where r.record_id like 'live-%' order by s.iccid`,
    );
    expect(rows).toEqual(liveDemoSims().map((s) => ({ iccid: s.iccid, source: DEMO_SOURCE })));
    const after = await em().execute<Array<{ n: string }>>(`select count(*) as n from usage_record`);
    expect(Number(after[0]?.n)).toBe(Number(before[0]?.n) + live);
  });

  it('says how to get a key when it has none, and refuses a wrong one', async () => {
    const none = await runCli(
      cliEnv({ DATA_DIR: path.join(portal.server.dataDir, 'elsewhere') }),
      ['usage:simulate', '--once', '--url', portal.server.url],
      120_000,
    );
    expect(none.code).toBe(1);
    expect(none.err).toContain('no network key');
    const wrong = await runCli(
      cliEnv({ DATA_DIR: portal.server.dataDir }),
      ['usage:simulate', '--once', '--url', portal.server.url, '--key', `sn_${'x'.repeat(43)}`],
      120_000,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('answered 401');
  });
});
