// /feedback: free text to support. Stored, then mailed; "Skicka" is disabled while the text is blank (with JS),
// and the server refuses blank text either way.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import {
  Form,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import { useEffect, useState } from 'react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { submissionFailed } from '#app/utils/forms.ts';
import { constraints, type FieldConstraint } from '#app/utils/constraints.ts';
import { formText, procedureProblem } from '#app/utils/forms.server.ts';
import { feedbackInput } from '#domain/feedback/schemas.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

export const ErrorBoundary = routeErrorBoundary(t.feedback.title);

export const meta: MetaFunction = () => [{ title: `${t.feedback.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  return { fields: constraints(feedbackInput) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireUser(request, context);
  const message = formText(await request.formData(), 'message');
  try {
    await context.trpc.feedback.send({ message });
  } catch (err) {
    const problem = procedureProblem(err);
    if (problem?.code === 'BAD_REQUEST')
      return { message, error: problem.fields.message ?? t.feedback.blank, failed: false };
    context.services.log.error({ err, reqId: context.requestId }, 'feedback could not be saved');
    return { message, error: null, failed: true };
  }
  // The thank-you is the procedure's toast, kept as a one-time flash, so a reload does not show it again.
  await context.ctx.showToasts({ flash: true });
  return redirect('/feedback');
}

/**
 * With JS the post is a fetch: when it fails on the way (no network, a proxy's or the server's error page),
 * the form stays with its text and says so, instead of the route's error page.
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const typed = (await request.clone().formData()).get('message');
  const message = typeof typed === 'string' ? typed : '';
  try {
    return await serverAction<typeof action>();
  } catch (err) {
    if (err instanceof Response) throw err; // the redirect after sending, or to the login page
    console.error('[feedback] sending failed', err);
    return { message, error: null, failed: true };
  }
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  submissionFailed(actionResult) ? false : defaultShouldRevalidate;

export default function FeedbackPage() {
  const { fields } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { key } = useLocation();
  return (
    <div className="feedback">
      <h1>{t.feedback.title}</h1>
      {data?.failed ? (
        <Notice kind="error" role="alert">
          {t.feedback.failed}
        </Notice>
      ) : null}
      <p className="muted">{t.feedback.intro}</p>
      {/* A new location (after sending) starts an empty form; after a refusal the text comes back. */}
      <FeedbackForm key={key} field={fields.message} initial={data?.message ?? ''} error={data?.error ?? undefined} />
    </div>
  );
}

function FeedbackForm({ field, initial, error }: { field: FieldConstraint; initial: string; error?: string }) {
  const [text, setText] = useState(initial);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const busy = useNavigation().state === 'submitting';
  const blank = text.trim() === '';
  const described = ['feedback-counter', error ? 'feedback-error' : null].filter(Boolean).join(' ');
  return (
    <Form method="post" action="/feedback" className="card" noValidate>
      <ErrorSummary errors={error ? { message: error } : null} fields={summaryFields} />
      <div className={error ? 'field invalid' : 'field'}>
        <label htmlFor="feedback-message">{t.feedback.label}</label>
        <textarea
          id="feedback-message"
          name="message"
          rows={8}
          {...field}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        />
        <p id="feedback-counter" className="hint counter">
          {t.feedback.counter(text.length, field.maxLength ?? 0)}
        </p>
        {error ? (
          <p id="feedback-error" className="error">
            {error}
          </p>
        ) : null}
      </div>
      {/* Disabled only once JS runs: without JS the button must stay usable and the server checks. */}
      <button className="btn btn-primary" type="submit" disabled={busy || (hydrated && blank)}>
        {busy ? t.feedback.sending : t.feedback.send}
      </button>
    </Form>
  );
}

const summaryFields = { message: { id: 'feedback-message', label: t.feedback.label } };
