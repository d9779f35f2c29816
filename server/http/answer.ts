// The HTTP doors' name for the one translator (server/trpc/errors.ts, owned by the procedure layer): anything
// thrown becomes an HTTP answer { status, body: { error, issues } } with Swedish text (httpError). The procedure
// layer never imports this folder; the doors import from it.
export { DATABASE_RETRY_AFTER_SECONDS, errorBody, httpError, type HttpError, type Issue } from '#server/trpc/errors.ts';
