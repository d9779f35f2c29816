// Home: the menu of the spec.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { t } from '~/texts';
import { requireUser } from '~/utils/auth.server';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  return { isSuperAdmin: session.isSuperAdmin, name: session.name, companyName: session.companyName };
}

export default function Home() {
  const { isSuperAdmin, name, companyName } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t.home.title}</h1>
      <p className="muted">
        {name}, {companyName}
      </p>
      <nav className="menu" aria-label={t.home.title}>
        <Link className="btn btn-primary" to="/add">
          {t.home.activate}
        </Link>
        <Link className="btn" to="/add/bulk">
          {t.home.activateMany}
        </Link>
        <Link className="btn" to="/sims">
          {t.home.list}
        </Link>
        <Link className="btn" to="/export">
          {t.home.export}
        </Link>
        <Link className="btn" to="/feedback">
          {t.home.feedback}
        </Link>
        {isSuperAdmin ? (
          <Link className="btn btn-destructive" to="/admin">
            {t.home.admin}
          </Link>
        ) : null}
        {/* A whole-document post, also with JS: the answer is a redirect to /login, and the page's data held in
            the browser's memory goes with the old document. */}
        <Form method="post" action="/auth/logout" reloadDocument>
          <button className="btn" type="submit">
            {t.home.logout}
          </button>
        </Form>
      </nav>
    </>
  );
}
