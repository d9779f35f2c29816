// The table of signed-in sessions (browser, address, signed in and how, last active, this device marked), with a
// "Logga ut" form per row: the user's own page (/security/sessions) and a super admin's user page show it.
import { Form } from '@remix-run/react';
import { tSecurity } from '#domain/texts/security.ts';

const s = tSecurity.sessions;

export type SessionRow = {
  id: string;
  browser: string;
  ip: string | null;
  method: string;
  created: string;
  lastSeen: string;
  current: boolean;
};

/** The sessions as a table: on a phone the address and times go under the browser's name. */
export function SessionTable({
  sessions,
  busy,
  hidden,
}: {
  sessions: SessionRow[];
  busy: boolean;
  /** Extra fields each end form posts (the super admin's page: the intent). */
  hidden?: Record<string, string>;
}) {
  return (
    <div className="table-wrap">
      <table className="sessions-table">
        <caption className="visually-hidden">{s.heading}</caption>
        <thead>
          <tr>
            <th scope="col">{s.browser}</th>
            <th scope="col" className="hide-mobile">
              {s.address}
            </th>
            <th scope="col" className="hide-mobile">
              {s.signedIn}
            </th>
            <th scope="col">{s.lastSeen}</th>
            <th scope="col">
              <span className="visually-hidden">{s.end}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((row) => (
            <tr key={row.id} aria-current={row.current ? 'true' : undefined}>
              <td>
                {row.browser}
                {row.current ? <strong className="cell-sub">{s.thisDevice}</strong> : null}
                <span className="cell-sub only-mobile">
                  {row.ip ?? s.unknownAddress} · {s.via(row.method)}
                </span>
              </td>
              <td className="hide-mobile">{row.ip ?? s.unknownAddress}</td>
              <td className="hide-mobile">
                {row.created}
                <span className="cell-sub">{s.via(row.method)}</span>
              </td>
              <td>{row.lastSeen}</td>
              <td>
                <Form method="post">
                  {Object.entries(hidden ?? {}).map(([name, value]) => (
                    <input key={name} type="hidden" name={name} value={value} />
                  ))}
                  <input type="hidden" name="id" value={row.id} />
                  <button
                    className="btn btn-link"
                    type="submit"
                    disabled={busy}
                    aria-label={s.endLabel(row.current ? `${row.browser} (${s.thisDevice})` : row.browser)}
                  >
                    {s.end}
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
