// A tag's bounds and text without zod (domain/sims/tags.ts has the checks), so the browser's pages can split and
// bound what is typed in a "Taggar" field (issue 40) without the schemas.

/** The longest tag. */
export const TAG_MAX = 40;
/** Tags added or removed in one call. */
export const TAGS_PER_CALL = 20;

/** The tag as stored: trimmed, runs of white space one space. */
export const normalizeTag = (text: string): string => text.trim().replace(/\s+/g, ' ');

/**
 * Tags typed in one text (the activation pages' "Taggar" field, a bulk file's Taggar cell): separated by commas,
 * each normalized, empty parts skipped. The result is checked as a list of tags (tags.ts `tagList`, `tagsOfText`).
 */
export const splitTags = (text: string): string[] => text.split(',').map(normalizeTag).filter(Boolean);
