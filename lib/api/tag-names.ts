/**
 * Tag names (contract section 16) as the list's URL state and the search box read them: small on purpose, the
 * list's first load carries it (the rest of notes and tags is in annotations.ts).
 */
export const TAG_NAME_MAX = 40;

const TAG_NAME = /^[\p{L}\p{N}_-]+$/u;

/** Why a tag name cannot be used, as the 400 says it after `Invalid name: `; null when it can. */
export function tagNameProblem(raw: string): string | null {
  if (!raw) return 'name must not be empty';
  if ([...raw].length > TAG_NAME_MAX) return `name must be at most ${TAG_NAME_MAX} characters`;
  if (!TAG_NAME.test(raw)) return 'name must be letters, digits, - and _ only';
  return null;
}
export const isTagName = (raw: unknown): raw is string => typeof raw === 'string' && tagNameProblem(raw) === null;
/** Tags are one per name whatever its case: "VIP" and "vip" are one tag. */
export const tagKey = (name: string) => name.normalize('NFC').toLocaleLowerCase('en');

/**
 * `tag:<name>` typed in the search box (section 16): the tags it names and the rest of the text, or null when
 * it names none. "tag:vip tag:disputed amara" is the list of either tag, searched for "amara".
 */
export function tagQuery(q: string): { tags: string[]; rest: string | undefined } | null {
  const tags: string[] = [];
  const rest = q
    .split(/\s+/)
    .filter((word) => {
      const match = /^tag:(.+)$/i.exec(word);
      if (match && isTagName(match[1])) tags.push(match[1]!);
      return !(match && isTagName(match[1]));
    })
    .join(' ')
    .trim();
  return tags.length ? { tags: [...new Set(tags)].slice(0, 20), rest: rest || undefined } : null;
}

/** The list a `tag:` search opens: `/collections?tag=…&q=…`. */
export function tagQueryHref(found: { tags: string[]; rest: string | undefined }): string {
  const search = new URLSearchParams();
  if (found.rest) search.set('q', found.rest);
  for (const tag of found.tags) search.append('tag', tag);
  return `/collections?${search}`;
}
