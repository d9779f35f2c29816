/** Makes a search text safe inside ILIKE '%...%' (the user's % and _ match themselves). */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
