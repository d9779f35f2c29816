// A SIM's tags (issue 40): short texts a company chooses ("Göteborg", "Kylbilar") that group its SIMs. A tag is
// its text, trimmed, inner spaces made one, 1 to TAG_MAX characters, no control characters; "Göteborg" and
// "göteborg" are two tags (as typed: the company's own words). The bounds of every door are here.
import { tTags } from '#domain/texts/tags.ts';
import { rowId, z } from '#domain/zod.ts';
import { BULK_MAX } from './limits.ts';
import { listState } from './pause.ts';

import { normalizeTag, splitTags, TAG_MAX, TAGS_PER_CALL } from './tag-text.ts';

export { normalizeTag, splitTags, TAG_MAX, TAGS_PER_CALL };
/** Tags a list may be filtered by at once (every one of them). */
export const TAGS_PER_FILTER = 5;
/** Tags one SIM may have. */
export const TAGS_PER_SIM = 30;

// Control characters (C0, DEL, C1) and the line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export const tagSchema = z
  .string()
  .max(1_000)
  .transform(normalizeTag)
  .superRefine((v, ctx) => {
    if (!v) ctx.addIssue({ code: 'custom', message: tTags.empty });
    else if (v.length > TAG_MAX) ctx.addIssue({ code: 'custom', message: tTags.tooLong(TAG_MAX) });
    else if (CONTROL.test(v)) ctx.addIssue({ code: 'custom', message: tTags.control });
  });

/** The tags of a typed text, checked as a list of tags: the tags, or the first refusal's message. */
export function tagsOfText(text: string): { ok: true; tags: string[] } | { ok: false; message: string } {
  const parsed = tagList.safeParse(splitTags(text));
  if (parsed.success) return { ok: true, tags: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? tTags.empty };
}

/** A SIM's tags in the API's answers, in text order. */
export const simTagsOutput = z.array(z.string());

/** The list's filter: tags every listed SIM has (all of them; ?tag=a&tag=b). */
export const tagFilter = z.array(tagSchema).max(TAGS_PER_FILTER, tTags.filterMax(TAGS_PER_FILTER)).optional();

/** Tags to add (or remove): up to TAGS_PER_CALL, each once, none when left out. */
export const tagList = z
  .array(tagSchema)
  .max(TAGS_PER_CALL, tTags.tooMany(TAGS_PER_CALL))
  .default([])
  .transform((tags) => [...new Set(tags)]);

/**
 * POST /api/sim/tags: the SIMs (`ids`, 1 to BULK_MAX, or `q`: every SIM of the fleet a search of the list finds, ""
 * for all of them, narrowed with `q` as the list is by `tag` and `status`) and the tags to add and to remove (a tag in
 * both is added: the call's result has it).
 */
export const tagChangeInput = z
  .object({
    ids: z.array(rowId()).min(1).max(BULK_MAX, tTags.idsMax(BULK_MAX)).optional(),
    q: z.string().max(200).optional(),
    tag: tagFilter,
    status: listState,
    add: tagList,
    remove: tagList,
  })
  .superRefine((v, ctx) => {
    if ((v.ids === undefined) === (v.q === undefined))
      ctx.addIssue({ code: 'custom', message: tTags.idsOrQ, path: ['ids'] });
    // The list's narrowing goes with a search only: ids name their SIMs themselves.
    if (v.ids !== undefined && (v.tag !== undefined || v.status !== undefined))
      ctx.addIssue({ code: 'custom', message: tTags.narrowWithQ, path: [v.tag !== undefined ? 'tag' : 'status'] });
    if (v.add.length === 0 && v.remove.length === 0)
      ctx.addIssue({ code: 'custom', message: tTags.nothingToChange, path: ['add'] });
  });
export type TagChangeInput = z.infer<typeof tagChangeInput>;

export const tagChangeOutput = z.object({
  success: z.boolean(),
  /** The SIMs whose tags changed. */
  changed: z.number(),
  /** The SIMs that would have had more than TAGS_PER_SIM tags: left as they were. */
  full: z.number(),
});

/** POST /api/tags/rename: a tag of the company, on every SIM that has it, becomes another. */
export const tagRenameInput = z.object({ from: tagSchema, to: tagSchema });
/** POST /api/tags/delete: a tag taken off every SIM of the company. */
export const tagDeleteInput = z.object({ tag: tagSchema });
/** What a rename or delete did: the SIMs changed. */
export const tagCompanyChangeOutput = z.object({ success: z.boolean(), changed: z.number() });
