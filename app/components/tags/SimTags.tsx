// The SIM page's tags (issue 40): the SIM's tags as chips (each a link to /sims filtered by it) with a remove button
// each, and a small form to add one with the company's tags to pick from. Each is a plain POST form to the SIM page's
// action (intent tag-add or tag-remove), so it works without JS; a refused tag stands next to the field with what
// was typed.
import { Form, Link } from '@remix-run/react';
import { useMemo } from 'react';
import { Field } from '#app/components/Field.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { TAG_MAX } from '#domain/sims/tags.ts';
import { tTags } from '#domain/texts/tags.ts';

export const TAG_ADD = 'tag-add';
export const TAG_REMOVE = 'tag-remove';
/** The add field's id (the summary links to it). */
const FIELD_ID = 'sim-tag';

/** The chips of a list of tags, each with a remove button when `removable` (a form of its own). */
export function TagChips({ tags, removable }: { tags: string[]; removable: boolean }) {
  return (
    <ul className="tag-chips">
      {tags.map((tag) => (
        <li key={tag} className="tag-chip">
          <Link to={`/sims?${new URLSearchParams({ tag })}`} aria-label={tTags.listOf(tag)}>
            {tag}
          </Link>
          {removable ? (
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value={TAG_REMOVE} />
              <input type="hidden" name="tag" value={tag} />
              <button className="tag-remove" type="submit" aria-label={tTags.remove(tag)} title={tTags.remove(tag)}>
                <span aria-hidden="true">×</span>
              </button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function SimTags(p: {
  tags: string[];
  /** The company's tags, offered in the field's list (those the SIM has left out). */
  companyTags: string[];
  writable: boolean;
  /** A refused tag: its message and what was typed. */
  error?: string;
  value?: string;
  busy: boolean;
}) {
  const offered = p.companyTags.filter((tag) => !p.tags.includes(tag));
  // The same object while the message is (the summary takes the focus again only for a new refusal).
  const errors = useMemo(() => (p.error ? { tag: p.error } : undefined), [p.error]);
  return (
    <section className="card sim-tags" aria-labelledby="tags-title">
      <h2 id="tags-title">{tTags.heading}</h2>
      {p.tags.length ? <TagChips tags={p.tags} removable={p.writable} /> : <p className="muted">{tTags.none}</p>}
      {p.writable ? (
        // A new form after each change of the tags (the field empty again); a refused one keeps what was typed.
        <Form method="post" className="tag-add" key={p.tags.join('\n')} noValidate preventScrollReset>
          <ErrorSummary
            id="tag-error-summary"
            errors={errors}
            fields={{ tag: { label: tTags.newTag, id: FIELD_ID } }}
          />
          <input type="hidden" name="intent" value={TAG_ADD} />
          <Field id={FIELD_ID} label={tTags.newTag} error={p.error} hint={tTags.newTagHint(TAG_MAX)}>
            {(aria) => (
              <div className="tag-add-row">
                <input
                  {...aria}
                  name="tag"
                  type="text"
                  required
                  maxLength={TAG_MAX}
                  list={offered.length ? 'company-tags' : undefined}
                  defaultValue={p.value ?? ''}
                  autoComplete="off"
                />
                <button className="btn" type="submit" disabled={p.busy}>
                  {tTags.add}
                </button>
              </div>
            )}
          </Field>
          {offered.length ? (
            <datalist id="company-tags">
              {offered.map((tag) => (
                <option key={tag} value={tag} />
              ))}
            </datalist>
          ) : null}
        </Form>
      ) : null}
    </section>
  );
}
