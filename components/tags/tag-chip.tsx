import type { TagColour } from '@/lib/api/annotations';

const COLOUR: Record<TagColour, string> = {
  grey: 'tag tag-grey',
  red: 'tag tag-red',
  orange: 'tag tag-orange',
  yellow: 'tag tag-yellow',
  green: 'tag tag-green',
  teal: 'tag tag-teal',
  blue: 'tag tag-blue',
  purple: 'tag tag-purple',
  pink: 'tag tag-pink',
};

/** A tag as every page shows it: its name in its colour (plain markup: a hundred rows may each hold a few). */
export const tagChip = (tag: { name: string; colour: TagColour }) => (
  <span key={tag.name} className={COLOUR[tag.colour] ?? COLOUR.grey}>
    {tag.name}
  </span>
);

/** A record's or a row's tags, or nothing. */
export function TagList({ tags, label }: { tags: { name: string; colour: TagColour }[]; label?: string }) {
  if (!tags.length) return null;
  return (
    <ul aria-label={label ?? 'Tags'} className="flex flex-wrap gap-1">
      {tags.map((tag) => (
        <li key={tag.name}>{tagChip(tag)}</li>
      ))}
    </ul>
  );
}
