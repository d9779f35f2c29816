// The one summary of a refused form, at its top: how many fields to correct and a link to each with the
// server's message (the same message stands under the field). The same with JavaScript on and off: it is in
// the page the server sends after a refused post (autofocus), and a refused post made with JS mounts it anew
// (focused) or updates it (focused again). A link moves the focus to its field.
import { useEffect, useRef, type MouseEvent } from 'react';
import { FORM_ERROR } from '#app/utils/forms.ts';
import { tForms } from '#domain/texts/forms.ts';

/**
 * The form's fields in the order they stand: name -> the label to put before the message (optional) and the id
 * of the control to link to (the name when left out).
 */
export type SummaryFields = Record<string, string | { label?: string; id?: string }>;

type Item = { key: string; target: string; label?: string; message: string };

function itemsOf(errors: Record<string, string | undefined>, fields: SummaryFields, idPrefix: string): Item[] {
  const keys = [...Object.keys(fields), ...Object.keys(errors).filter((k) => !(k in fields))];
  const items: Item[] = [];
  for (const key of keys) {
    const message = errors[key];
    if (key === FORM_ERROR || !message) continue;
    const field = fields[key];
    const spec = typeof field === 'string' ? { label: field } : (field ?? {});
    items.push({ key, target: spec.id ?? `${idPrefix}${key}`, label: spec.label, message });
  }
  return items;
}

/** Focus the field itself, or the first control inside it (a group such as the plan's fieldset). */
function focusField(event: MouseEvent<HTMLAnchorElement>, target: string) {
  const el = document.getElementById(target);
  if (!el) return;
  event.preventDefault();
  const control = el.matches('input, select, textarea, button, [tabindex]')
    ? el
    : el.querySelector<HTMLElement>('input:not([type=hidden]), select, textarea');
  el.scrollIntoView({ block: 'center' });
  (control ?? el).focus({ preventScroll: true });
}

export function ErrorSummary({
  errors,
  fields = {},
  idPrefix = '',
  lead = tForms.summaryLead,
  formTitle = tForms.summaryTitleForm,
  id = 'error-summary',
}: {
  /** The refused fields' messages by name (FORM_ERROR for one about the whole form); nothing shown when empty. */
  errors: Record<string, string | undefined> | null | undefined;
  fields?: SummaryFields;
  /** The controls' ids are the names with this before them (`company-` + `name`), unless `fields` says. */
  idPrefix?: string;
  /** The sentence under the heading when fields are listed. */
  lead?: string;
  /** The heading of a refusal that names no field (its message stands under it). */
  formTitle?: string;
  /** The summary's own id (one refused form at a time shows it, so the default serves most pages). */
  id?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const mounted = useRef(false);
  // A new refusal while the summary stands (another post refused): the focus goes to it again. The first run is
  // the mount, which autoFocus covers (and hydration leaves to the browser's autofocus).
  useEffect(() => {
    if (mounted.current) box.current?.focus();
    mounted.current = true;
  }, [errors]);
  if (!errors) return null;
  const items = itemsOf(errors, fields, idPrefix);
  const formMessage = errors[FORM_ERROR];
  if (!items.length && !formMessage) return null;
  return (
    <div
      ref={box}
      id={id}
      className="error-summary"
      role="alert"
      tabIndex={-1}
      autoFocus
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="error-summary-title">
        {items.length ? tForms.summaryTitle(items.length) : formTitle}
      </h2>
      {formMessage ? <p>{formMessage}</p> : null}
      {items.length ? (
        <>
          <p>{lead}</p>
          <ul>
            {items.map((item) => (
              <li key={item.key}>
                <a href={`#${item.target}`} onClick={(e) => focusField(e, item.target)}>
                  {item.label ? <span className="error-summary-field">{item.label}: </span> : null}
                  {item.message}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
