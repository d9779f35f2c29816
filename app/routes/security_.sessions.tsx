// /security/sessions ("Inloggningar"): where the user is signed in (browser, address, when and how, last active),
// this device marked; "Logga ut" per row (this device: logs out and goes to /login) and "Logga ut alla andra".
// Plain forms: works without JS. Not nested under /security's page (its own layout, the tabs on top).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { SecurityTabs } from '#app/components/SecurityTabs.tsx';
import { SessionTable } from '#app/components/SessionTable.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { formText, procedureProblem } from '#app/utils/forms.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const s = tSecurity.sessions;

export const ErrorBoundary = routeErrorBoundary(s.heading);

export const meta: MetaFunction = () => [{ title: `${s.heading} – ${tSecurity.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  const { sessions, more } = await context.trpc.sessions.mine();
  const params = new URL(request.url).searchParams;
  const ended = params.get('ended');
  return {
    more,
    notice: ended === null ? null : /^\d{1,4}$/.test(ended) ? s.endedOthers(Number(ended)) : s.ended,
    sessions: sessions.map((row) => ({
      ...row,
      method: tSecurity.methods[row.method] ?? row.method,
      created: formatDateTime(row.createdAt),
      lastSeen: formatDateTime(row.lastSeenAt),
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireUser(request, context);
  const form = await request.formData();
  try {
    if (formText(form, 'intent') === 'endOthers') {
      const { ended } = await context.trpc.sessions.endOthers();
      return redirect(`/security/sessions?ended=${ended}`);
    }
    const { current } = await context.trpc.sessions.end({ id: formText(form, 'id').slice(0, 100) });
    // This device: signed out, so on to the login page (the answer clears the cookie).
    if (current) return redirect('/login', { headers: procedureHeaders(context) });
    return redirect('/security/sessions?ended=one');
  } catch (err) {
    // Already ended (another tab, the super admin) or not the user's: said on the page, the list reloaded.
    const problem = procedureProblem(err);
    if (problem && (problem.code === 'NOT_FOUND' || problem.code === 'BAD_REQUEST')) return { error: s.notFound };
    throw err;
  }
}

export default function SecuritySessions() {
  const { sessions, more, notice } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const others = sessions.filter((row) => !row.current).length;
  return (
    <div className="admin security-sessions">
      <h1>{tSecurity.title}</h1>
      <SecurityTabs />
      <h2>{s.heading}</h2>
      <p>{s.intro}</p>
      {notice && !data ? (
        <Notice kind="success" role="status">
          {notice}
        </Notice>
      ) : null}
      {data?.error ? (
        <Notice kind="error" role="alert">
          {data.error}
        </Notice>
      ) : null}
      <SessionTable sessions={sessions} busy={busy} />
      {more ? <p className="muted">{s.more(sessions.length)}</p> : null}
      {others === 0 ? (
        <p className="muted">{s.none}</p>
      ) : (
        <Form method="post" className="actions">
          <input type="hidden" name="intent" value="endOthers" />
          <button className="btn btn-destructive" type="submit" disabled={busy} aria-describedby="end-others-hint">
            {s.endOthers}
          </button>
          <p id="end-others-hint" className="muted">
            {s.endOthersHint}
          </p>
        </Form>
      )}
    </div>
  );
}
