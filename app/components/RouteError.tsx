// The error page of one route: it takes the route's place inside the layout, so the header, the back link
// and the acting banner stay and the user can go on elsewhere. Each form route exports it as its
// ErrorBoundary with its own heading; the root uses it for everything else.
import { isRouteErrorResponse, Link, useLocation, useRouteError } from '@remix-run/react';
import { t } from '#domain/texts/common.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

export function RouteError({ title }: { title?: string }) {
  const error = useRouteError();
  const { pathname, search } = useLocation();
  if (isRouteErrorResponse(error) && error.status === 503) {
    // The database was out of reach (or every connection busy): nothing changed; try again shortly.
    return (
      <>
        <h1>{t.errors.databaseDownTitle}</h1>
        <Notice kind="error" role="alert">
          {t.errors.databaseDown}
        </Notice>
        <p>
          <Link to={pathname + search} reloadDocument>
            {t.error.retry}
          </Link>
        </p>
      </>
    );
  }
  if (isRouteErrorResponse(error) && (error.status === 404 || error.status === 403)) {
    const text = error.status === 404 ? t.notFound : t.forbidden;
    return (
      <>
        <h1>{text.title}</h1>
        <p>{text.text}</p>
        <p>
          <Link to="/">{t.notFound.home}</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{title ?? t.error.title}</h1>
      <Notice kind="error" role="alert">
        {title ? t.error.page : t.error.text}
      </Notice>
      {title ? (
        <p>
          <Link to={pathname + search} reloadDocument>
            {t.error.retry}
          </Link>
        </p>
      ) : null}
    </>
  );
}

/** A form route's ErrorBoundary, headed by the page's own title. */
export function routeErrorBoundary(title: string) {
  return function ErrorBoundary() {
    return <RouteError title={title} />;
  };
}
