// Long: one user's admin page: its edit form, its sessions and the passkey reset share one loader and action.
// /admin/companies/{companyId}/{userId}: edit a user of that company (name, e-mail, role, super admin), see where
// they are signed in and end a session ("Inloggningar"), and reset their passkeys ("Återställ nycklar", confirmed on
// the page itself: ?confirm=reset, so it works without JS). The role is the same select as the owner's /company
// pages; isCompanyOwner is posted as `role = owner`. A change without a recent passkey use shows the step-up message.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { SessionTable } from '#app/components/SessionTable.tsx';
import { RoleField } from '#app/components/RoleField.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { FORM_ERROR, formFlag } from '#app/utils/forms.ts';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';
import { constraints, withinLimits } from '#app/utils/constraints.ts';
import { attempt, formText, idParam, procedureProblem } from '#app/utils/forms.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { USER_ROLES, type UserRole } from '#domain/companies/kinds.ts';
import { updateUserInput } from '#domain/companies/user-schemas.ts';
import { Notice } from '#app/components/ui/Notice.tsx';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';

export const ErrorBoundary = routeErrorBoundary(tAdmin.user.title);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.user.name ?? tAdmin.user.title} – ${t.appName}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  requireSuperAdmin(request, context);
  const companyId = idParam(params.companyId);
  const id = idParam(params.userId);
  // The company in the URL must be the user's: another company's user is "not found" here.
  const found = await attempt(() => context.trpc.admin.getUser({ id, companyId }));
  if (!found.ok) throw new Response('Not Found', { status: 404 });
  const signedIn = await context.trpc.sessions.forUser({ userId: id });
  const query = new URL(request.url).searchParams;
  const notice = query.get('notice');
  return {
    user: found.value,
    updated: notice === 'updated',
    notice: sessionNotice(notice, query),
    confirmReset: query.get('confirm') === 'reset',
    fields: constraints(updateUserInput),
    passkeys: signedIn.passkeys,
    more: signedIn.more,
    sessions: signedIn.sessions.map((row) => ({
      ...row,
      method: tSecurity.methods[row.method] ?? row.method,
      created: formatDateTime(row.createdAt),
      lastSeen: formatDateTime(row.lastSeenAt),
    })),
  };
}

/** The notice after ending a session or resetting the passkeys (the redirect's query). */
function sessionNotice(notice: string | null, params: URLSearchParams): string | null {
  if (notice === 'ended') return tSecurity.sessions.ended;
  const count = (name: string) => Math.min(Number(/^\d{1,6}$/.exec(params.get(name) ?? '')?.[0] ?? 0), 999_999);
  if (notice === 'reset') return tSecurity.sessions.resetDone(count('passkeys'), count('sessions'));
  return null;
}

/**
 * A refusal of the sessions' changes as the page's error: a missing step-up or a session already gone says so on the
 * page; anything else is the error page.
 */
function sessionRefusal(err: unknown) {
  const problem = procedureProblem(err);
  if (problem && (problem.stepUp || problem.code === 'NOT_FOUND' || problem.code === 'BAD_REQUEST'))
    return { values: null, errors: { [FORM_ERROR]: problem.stepUp ? problem.message : tSecurity.sessions.notFound } };
  throw err;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireSuperAdmin(request, context);
  const companyId = idParam(params.companyId);
  const id = idParam(params.userId);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  if (intent === 'endSession' || intent === 'resetPasskeys') {
    try {
      const back = `/admin/companies/${companyId}/${id}`;
      if (intent === 'endSession') {
        const { current } = await context.trpc.sessions.endForUser({
          userId: id,
          id: formText(form, 'id').slice(0, 100),
        });
        // The super admin ended their own session here: signed out.
        if (current) return redirect('/login', { headers: procedureHeaders(context) });
        return redirect(`${back}?notice=ended`);
      }
      const reset = await context.trpc.sessions.resetPasskeys({ userId: id });
      if (reset.current) return redirect('/login', { headers: procedureHeaders(context) });
      return redirect(`${back}?notice=reset&passkeys=${reset.passkeys}&sessions=${reset.ended}`);
    } catch (err) {
      return sessionRefusal(err);
    }
  }
  const values = {
    name: formText(form, 'name'),
    email: formText(form, 'email'),
    role: formText(form, 'role'),
    isSuperAdmin: formFlag(form, 'isSuperAdmin'),
  };
  // The procedure parses the role like every other field (an unknown one is refused next to the select).
  const role = values.role as UserRole;
  const result = await attempt(() =>
    context.trpc.admin.updateUser({ id, companyId, ...values, role, isCompanyOwner: role === 'owner' }),
  );
  if (!result.ok) return { values: withinLimits(values, constraints(updateUserInput)), errors: result.fields };
  return redirect(`/admin/companies/${companyId}/${id}?notice=updated`);
}

export default function UserEdit() {
  const { user, updated, fields, notice, confirmReset, passkeys, sessions, more } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const v = data?.values ?? user;
  // A posted role that is none of the three (a hand-made post) shows the saved one, not the select's first.
  const role = (USER_ROLES as readonly string[]).includes(v.role) ? v.role : user.role;
  const e: Record<string, string | undefined> = data?.errors ?? {};
  return (
    <div className="admin">
      <h1>{tAdmin.user.title}</h1>
      {updated && !data ? (
        <Notice kind="success" role="status">
          {tAdmin.user.updated}
        </Notice>
      ) : null}
      {notice && !data ? (
        <Notice kind="success" role="status">
          {notice}
        </Notice>
      ) : null}
      <ErrorSummary
        errors={data ? e : null}
        idPrefix="user-"
        fields={{ name: {}, email: {}, role: {}, isCompanyOwner: { id: 'user-role' } }}
        lead={tAdmin.failedReason}
        formTitle={tAdmin.failed}
      />
      <Form
        method="post"
        className="card"
        key={[user.name, user.email, user.role, user.isSuperAdmin].join('|')}
        noValidate
      >
        <input type="hidden" name="intent" value="updateUser" />
        <TextField
          id="user-name"
          name="name"
          label={tAdmin.user.name}
          {...fields.name}
          autoComplete="off"
          defaultValue={v.name}
          error={e.name}
        />
        <TextField
          id="user-email"
          name="email"
          label={tAdmin.user.email}
          type="email"
          {...fields.email}
          autoComplete="off"
          defaultValue={v.email}
          error={e.email}
        />
        <RoleField id="user-role" value={role} error={e.role ?? e.isCompanyOwner} />
        <Check
          id="user-isSuperAdmin"
          name="isSuperAdmin"
          label={tAdmin.user.isSuperAdmin}
          checked={v.isSuperAdmin}
          error={e.isSuperAdmin}
          hint={tAdmin.user.isSuperAdminHint}
        />
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {tAdmin.save}
        </button>
      </Form>
      <UserSessions
        userName={user.name}
        sessions={sessions}
        more={more}
        passkeys={passkeys}
        confirmReset={confirmReset}
        busy={busy}
      />
    </div>
  );
}

/** "Inloggningar" (the user's sessions, each with an end form) and "Återställ nycklar" with its confirm step. */
function UserSessions({
  userName,
  sessions,
  more,
  passkeys,
  confirmReset,
  busy,
}: {
  userName: string;
  sessions: Parameters<typeof SessionTable>[0]['sessions'];
  more: boolean;
  passkeys: number;
  confirmReset: boolean;
  busy: boolean;
}) {
  const s = tSecurity.sessions;
  return (
    <>
      <section aria-labelledby="user-sessions-title">
        <h2 id="user-sessions-title">{s.adminHeading}</h2>
        {sessions.length ? (
          <SessionTable sessions={sessions} busy={busy} hidden={{ intent: 'endSession' }} />
        ) : (
          <EmptyState>{s.noneForUser}</EmptyState>
        )}
        {more ? <p className="muted">{s.more(sessions.length)}</p> : null}
      </section>
      <section className="card" aria-labelledby="user-reset-title" id="reset">
        <h2 id="user-reset-title">{s.resetHeading}</h2>
        <p>{s.passkeyCount(passkeys)}</p>
        <p className="muted">{s.resetExplain}</p>
        {confirmReset ? (
          <Form method="post" className="actions" role="group" aria-labelledby="user-reset-confirm">
            <p id="user-reset-confirm">
              <strong>{s.resetConfirm(userName)}</strong>
            </p>
            <input type="hidden" name="intent" value="resetPasskeys" />
            <button className="btn btn-destructive" type="submit" disabled={busy}>
              {s.resetYes}
            </button>
            <Link className="btn" to="?" preventScrollReset>
              {s.cancel}
            </Link>
          </Form>
        ) : (
          <Form method="get" action="#reset">
            <input type="hidden" name="confirm" value="reset" />
            <button className="btn btn-destructive" type="submit">
              {s.reset}
            </button>
          </Form>
        )}
      </section>
    </>
  );
}

function Check({
  id,
  name,
  label,
  checked,
  error,
  hint,
}: {
  id: string;
  name: string;
  label: string;
  checked: boolean;
  error?: string;
  hint?: string;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="check-field">
      <div className="check">
        <input
          id={id}
          name={name}
          type="checkbox"
          defaultChecked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
