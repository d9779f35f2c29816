// Vitest global setup: one empty PGlite cluster (initdb, nothing else) per run, dumped to a file that every fresh
// PGlite database of the run starts from (tests/helpers/scratch-db.ts). initdb is most of an empty PGlite database's
// start (about 1.5 s of 2, more on a loaded machine), and the suite opens a few hundred of them. The databases stay
// empty: each test still migrates (or not) and seeds (or not) as it did.
import { writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

export const PGLITE_TEMPLATE_ENV = 'SIM_TEST_PGLITE_TEMPLATE';

export default async function setup() {
  if (process.env.DATABASE_URL) return;
  const pglite = await PGlite.create();
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(os.tmpdir(), 'pglite-template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = file;
  return () => rmSync(file, { force: true });
}
