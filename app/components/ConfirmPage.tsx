// The confirm page before an owner's destructive step (remove a user, delete a webhook, revoke an API key):
// a plain form that works without JS; the route gives the texts, the way back and any refusal.
import { Form, Link, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { Notice } from '#app/components/ui/Notice.tsx';

export function ConfirmPage({
  title,
  error,
  pageClass,
  textClass,
  children,
  cancelTo,
  cancelLabel,
  confirmLabel,
}: {
  title: string;
  /** The action's refusal in words (the last owner, say), shown above the question. */
  error?: string;
  /** Extra class on the page, beside `admin company-admin`. */
  pageClass?: string;
  textClass: string;
  /** The question itself. */
  children: ReactNode;
  cancelTo: string;
  cancelLabel: string;
  confirmLabel: string;
}) {
  const busy = useNavigation().state === 'submitting';
  return (
    <div className={pageClass ? `admin company-admin ${pageClass}` : 'admin company-admin'}>
      <h1>{title}</h1>
      {error ? (
        <Notice kind="error" role="alert">
          {error}
        </Notice>
      ) : null}
      <div className="card">
        <p className={textClass}>{children}</p>
        <Form method="post" className="actions">
          <Link className="btn" to={cancelTo}>
            {cancelLabel}
          </Link>
          <button className="btn btn-destructive" type="submit" disabled={busy}>
            {confirmLabel}
          </button>
        </Form>
      </div>
    </div>
  );
}
