// The ticked SIMs' tags on /sims (issue 40): a tag field and "Lägg till tagg" / "Ta bort tagg" in the selection's
// toolbar. The buttons post the bulk form (its ticked boxes, or "all that match": its search) to /sims' own action
// (sim.tags), so it works without JS as bulk deactivation's confirm does; a refused tag stands next to the field.
import { TAG_MAX } from '#domain/sims/tags.ts';
import { tTags } from '#domain/texts/tags.ts';

export const BULK_TAG = 'bulkTag';
export const BULK_TAG_ADD = 'tag-add';
export const BULK_TAG_REMOVE = 'tag-remove';
const ID = 'bulk-tag';

export function BulkTags(p: { companyTags: readonly string[]; error?: string; value?: string }) {
  return (
    <div className={p.error ? 'bulk-tags invalid' : 'bulk-tags'}>
      <label htmlFor={ID}>{tTags.bulkLabel}</label>
      <input
        id={ID}
        name={BULK_TAG}
        type="text"
        maxLength={TAG_MAX}
        list={p.companyTags.length ? `${ID}-list` : undefined}
        defaultValue={p.value ?? ''}
        autoComplete="off"
        aria-invalid={p.error ? true : undefined}
        aria-describedby={p.error ? `${ID}-error` : undefined}
      />
      {p.companyTags.length ? (
        <datalist id={`${ID}-list`}>
          {p.companyTags.map((tag) => (
            <option key={tag} value={tag} />
          ))}
        </datalist>
      ) : null}
      <button
        className="btn"
        type="submit"
        formMethod="post"
        formAction="/sims?index"
        name="intent"
        value={BULK_TAG_ADD}
      >
        {tTags.bulkAdd}
      </button>
      <button
        className="btn"
        type="submit"
        formMethod="post"
        formAction="/sims?index"
        name="intent"
        value={BULK_TAG_REMOVE}
      >
        {tTags.bulkRemove}
      </button>
      {p.error ? (
        <p id={`${ID}-error`} className="error" role="alert">
          {p.error}
        </p>
      ) : null}
    </div>
  );
}
