// bench:load's baseline for GET /sims: a bare Remix v2 app of the same versions (bench/remix-floor.ts), one
// route, /sims, whose loader runs the statements the portal's does, the same SQL with `pg`
// (bench/load-baseline-db.ts): the session check, then at once the first page of 50 of the company's active SIMs,
// their count and the company's tags (issue 40), then the page's usage this month, last sightings and tags (issues
// 39, 40; one statement, as the portal). The page renders the same data as a plain table, unformatted. bench/load.ts
// builds the app (buildSimsBaseline) and starts this file in its own process: REMIX_DIR (the built app),
// DATABASE_URL, PORT.
import path from 'node:path';
import type { GetLoadContextFunction } from '@remix-run/express';
import { companyOf, COUNT_SQL, LIST_SQL, pool, query, TAGS_SQL, withUsageAndTags } from './load-baseline-db.ts';
import { buildRemixApp, serveRemixApp } from './remix-floor.ts';

const PAGE_SIZE = 50;

const SIMS_ROUTE = `import { useLoaderData } from '@remix-run/react';

export const meta = () => [{ title: 'SIM-kort' }];

export async function loader({ request, context }) {
  return context.sims(request.headers.get('cookie'));
}

export default function Sims() {
  const { total, tags, sims } = useLoaderData();
  return (
    <main>
      <h1>SIM-kort ({total})</h1>
      <p>{tags.join(', ')}</p>
      <table>
        <thead>
          <tr>
            <th>ICCID</th>
            <th>Fakturamärkning</th>
            <th>Förbrukning</th>
            <th>Senast sedd</th>
            <th>Abonnemang</th>
            <th>Aktiverat</th>
          </tr>
        </thead>
        <tbody>
          {sims.map((s) => (
            <tr key={s.id}>
              <td>
                <a href={'/sims/' + s.id}>{s.iccid}</a>
              </td>
              <td>
                {s.mark} {s.tags.join(', ')}
              </td>
              <td>{s.bytes}</td>
              <td>{s.seen}</td>
              <td>{s.plan}</td>
              <td>{s.activated}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
`;

/** Builds the baseline app into a temp folder (remove it when done). */
export const buildSimsBaseline = () => buildRemixApp({ 'sims.jsx': SIMS_ROUTE }, 'sim-bench-load-remix-');

/** The loader's work: the session, then the page, the count and the company's tags at once, then the page's usage
 * and tags (as the portal's /sims). */
async function sims(cookie: string | null) {
  const company = await companyOf(cookie);
  if (company === null) throw new Response('Du är inte inloggad.', { status: 401 });
  const [page, count, tags] = await Promise.all([
    query('list', LIST_SQL, [company, PAGE_SIZE, 0]).then((r) => withUsageAndTags(company, r.rows)),
    query('count', COUNT_SQL, [company]),
    query('tags', TAGS_SQL, [company, company]),
  ]);
  const total = count.rows[0]?.n;
  if (typeof total !== 'number') throw new Error('the count query gave no number');
  return {
    total,
    tags: tags.rows.map((r) => String(r.tag)),
    sims: page.map((s) => ({
      id: s.id,
      iccid: s.iccid,
      mark: s.invoiceLineMark,
      tags: s.tags,
      bytes: s.usage.monthBytes,
      seen: s.usage.lastSeenAt,
      plan: s.ratePlan.description,
      activated: s.activatedAt,
    })),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const dir = process.env.REMIX_DIR;
  if (!dir) throw new Error('REMIX_DIR (the built baseline app) is not set');
  process.env.NODE_ENV = 'production';
  const app = await serveRemixApp(dir, {
    port: Number(process.env.PORT ?? 0),
    // The app's own loader reads context.sims (the portal's AppLoadContext type does not apply here).
    getLoadContext: (() => ({ sims })) as unknown as GetLoadContextFunction,
  });
  app.server.keepAliveTimeout = 65_000;
  const stop = () => app.close().then(() => pool.end().then(() => process.exit(0)));
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
