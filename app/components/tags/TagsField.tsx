// The activation pages' "Taggar" field (issue 40): optional, tags separated by commas (domain/sims/tags.ts
// splitTags), sent as `tags` to the activation; a refusal stands next to the field with what was typed.
import { Field } from '#app/components/Field.tsx';
import { TAG_MAX, TAGS_PER_CALL } from '#domain/sims/tag-text.ts';
import { tTags } from '#domain/texts/tags.ts';

/** The field's id and name (the summary links to it). */
export const TAGS_FIELD = 'tags';
/** Room for every tag of one call, with their commas and spaces. */
const TEXT_MAX = TAGS_PER_CALL * (TAG_MAX + 2);

export function TagsField({ value, error, hint }: { value?: string; error?: string; hint?: string }) {
  return (
    <Field id={TAGS_FIELD} label={tTags.heading} error={error} hint={hint ?? tTags.activationHint(TAG_MAX)}>
      {(aria) => (
        <input
          {...aria}
          name={TAGS_FIELD}
          type="text"
          maxLength={TEXT_MAX}
          defaultValue={value ?? ''}
          autoComplete="off"
        />
      )}
    </Field>
  );
}
