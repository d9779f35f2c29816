// /sims/tags, "Taggar" (issue 40): the company's tags in text order, each a link to /sims filtered by it, and for a
// member with write rights or an owner a rename form (a name that exists merges the two) and a delete in two steps
// (?confirm=<tag> asks first; with JS the question opens in place). Every form is a plain POST to this page's action
// (tags.rename / tags.delete, whose own role checks decide), so it works without JS; with JS one fetcher sends them
// (no reload). Done: a result line with the SIMs changed (the page's answer, no redirect: the count is in it), and
// the server's toast live to the open tabs (no flash: the answer is this page, a flash would show on the next one);
// refused: the message next to the field with what was typed.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useFetcher, useLoaderData } from '@remix-run/react';
import { useEffect, useState, type MouseEvent } from 'react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';
import { requireUser } from '#app/utils/auth.server.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { canWrite } from '#domain/companies/kinds.ts';
import { normalizeTag, TAG_MAX } from '#domain/sims/tags.ts';
import { t } from '#domain/texts/common.ts';
import { tTags } from '#domain/texts/tags.ts';
import { tTagsPage } from '#domain/texts/tags-page.ts';

const p = tTagsPage;
const RENAME = 'rename';
const DELETE = 'delete';

export const ErrorBoundary = routeErrorBoundary(p.title);

export const meta: MetaFunction = () => [{ title: `${p.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  const { tags } = await context.trpc.tags.list();
  const writable = canWrite(session);
  // The delete's second step without JS: the question by the tag (a tag no SIM has any more asks nothing).
  const confirm = new URL(request.url).searchParams.get('confirm');
  return { tags, writable, confirm: writable && confirm && tags.includes(confirm) ? confirm : null };
}

type Answer =
  | { intent: 'done'; result: string }
  | { intent: typeof RENAME; from: string; error: string; value: string }
  | { intent: typeof DELETE; tag: string; error: string };

export async function action({ request, context }: ActionFunctionArgs): Promise<Answer> {
  requireUser(request, context);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  if (intent === RENAME) {
    const from = formText(form, 'from');
    const to = formText(form, 'to');
    const value = to.slice(0, TAG_MAX * 2);
    if (normalizeTag(to) === from && from) return { intent: RENAME, from, error: p.sameName, value };
    const result = await attempt(() => context.trpc.tags.rename({ from, to }));
    if (!result.ok) {
      const error = result.fields.to ?? (result.fields.from ? p.unknown : Object.values(result.fields)[0]) ?? '';
      return { intent: RENAME, from, error, value };
    }
    await context.ctx.showToasts({ flash: false });
    return { intent: 'done', result: p.result(tTags.renamedTitle(from, normalizeTag(to)), result.value.changed) };
  }
  const tag = formText(form, 'tag');
  const result = await attempt(() => context.trpc.tags.delete({ tag }));
  if (!result.ok) return { intent: DELETE, tag, error: p.unknown };
  await context.ctx.showToasts({ flash: false });
  return { intent: 'done', result: p.result(tTags.deletedTitle(tag), result.value.changed) };
}

/** A tag's id in the page (its field and question): its index, as a tag may hold any character. */
const idOf = (i: number) => `tag-${i}`;

export default function TagsPage() {
  const { tags, writable, confirm } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const fetcher = useFetcher<typeof action>();
  // The fetcher's answer with JS, the action's without.
  const answer = fetcher.data ?? posted;
  const busy = fetcher.state !== 'idle';
  // The delete's question: from the address without JS, in place with JS.
  const [asking, setAsking] = useState<string | null>(confirm);
  useEffect(() => setAsking(confirm), [confirm]);
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.intent === 'done') setAsking(null);
  }, [fetcher.state, fetcher.data]);
  const ask = (tag: string | null) => (e: MouseEvent) => {
    e.preventDefault();
    setAsking(tag);
  };
  return (
    <div className="tags-page">
      <h1>{p.title}</h1>
      <p id="tags-intro">{p.intro}</p>
      {writable ? (
        <p id="tags-merge" className="muted">
          {p.mergeNote}
        </p>
      ) : (
        <p className="muted">{p.viewerNote}</p>
      )}
      {answer?.intent === 'done' ? (
        <Notice kind="success" role="status" className="tags-page-result">
          {answer.result}
        </Notice>
      ) : answer?.intent === DELETE ? (
        <Notice kind="error" role="alert" className="tags-page-result">
          {answer.error}
        </Notice>
      ) : null}
      {tags.length === 0 ? (
        <EmptyState>{p.none}</EmptyState>
      ) : (
        <ul className="tags-page-list" aria-label={p.listLabel}>
          {tags.map((tag, i) => {
            const id = idOf(i);
            const refused = answer?.intent === RENAME && answer.from === tag ? answer : null;
            return (
              <li key={tag} className="card tags-page-row">
                <h2 className="tags-page-name" id={`${id}-name`}>
                  <Link to={`/sims?${new URLSearchParams({ tag })}`} aria-label={p.simsWith(tag)}>
                    {tag}
                  </Link>
                </h2>
                {writable ? (
                  <div className="tags-page-forms">
                    <fetcher.Form method="post" className="tags-page-rename" noValidate preventScrollReset>
                      <input type="hidden" name="intent" value={RENAME} />
                      <input type="hidden" name="from" value={tag} />
                      <div className={refused ? 'field invalid' : 'field'}>
                        <label htmlFor={`${id}-to`}>
                          {p.newName}
                          <span className="visually-hidden">{p.newNameFor(tag)}</span>
                        </label>
                        <div className="tag-add-row">
                          <input
                            id={`${id}-to`}
                            name="to"
                            type="text"
                            required
                            maxLength={TAG_MAX}
                            autoComplete="off"
                            // A new field after each answer: empty when done, what was typed when refused.
                            key={refused ? `r-${refused.value}` : 'new'}
                            defaultValue={refused?.value ?? ''}
                            aria-invalid={refused ? true : undefined}
                            aria-describedby={refused ? `${id}-error tags-merge` : 'tags-merge'}
                          />
                          <button className="btn" type="submit" disabled={busy}>
                            {p.rename}
                            <span className="visually-hidden">{p.newNameFor(tag)}</span>
                          </button>
                        </div>
                        {refused ? (
                          <p id={`${id}-error`} className="error">
                            {refused.error}
                          </p>
                        ) : null}
                      </div>
                    </fetcher.Form>
                    {asking === tag ? (
                      <fetcher.Form method="post" className="tags-page-confirm" preventScrollReset>
                        <p id={`${id}-question`}>{p.confirmQuestion(tag)}</p>
                        <input type="hidden" name="intent" value={DELETE} />
                        <input type="hidden" name="tag" value={tag} />
                        <div className="actions">
                          <Link className="btn" to="/sims/tags" onClick={ask(null)} preventScrollReset>
                            {p.cancel}
                          </Link>
                          <button
                            className="btn btn-destructive"
                            type="submit"
                            disabled={busy}
                            aria-describedby={`${id}-question`}
                          >
                            {p.confirmDelete}
                          </button>
                        </div>
                      </fetcher.Form>
                    ) : (
                      <Link
                        className="btn tags-page-delete"
                        to={`/sims/tags?${new URLSearchParams({ confirm: tag })}`}
                        onClick={ask(tag)}
                        preventScrollReset
                      >
                        {p.delete}
                        <span className="visually-hidden">{p.forTag(tag)}</span>
                      </Link>
                    )}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
