'use client';

import { useEffect, useState, useTransition } from 'react';
import type { DeferredProps } from '@/components/ui/deferred';
import { TAG_SELECTED_BUTTON, tagSelectedLabel } from './tag-buttons';
import { Button } from '@/components/ui/button';
import { Popover } from '@/components/ui/popover';
import type { Tag } from '@/lib/api/annotations';
import { isApiFailure } from '@/lib/api/failure';
import { apiGet } from '@/lib/query/api-client';
import { tagChip } from './tag-chip';

/**
 * "Tag selected" (section 16): one tag put on the rows ticked on this page, or on every row of the list (its
 * state, up to 100,000) when `query` is given and chosen. The account's tags are read when it opens; what
 * happened is announced, and the list read again.
 */
export type TagSelectedProps = {
  selected: string[];
  /** How many rows the whole list holds. */
  count: number;
  /** The list's state as a query (filters, search, sort), when the whole list may be tagged. */
  query: string | null;
  onDone: (message: string) => void;
};

export default function TagSelected({
  selected,
  count,
  query,
  onDone,
  initialOpen = false,
  focusOnMount = false,
}: TagSelectedProps & DeferredProps) {
  const [open, setOpen] = useState(initialOpen);
  const [tags, setTags] = useState<Tag[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [whole, setWhole] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const load = () =>
    apiGet<{ data: Tag[] }>('/api/tags').then(
      (answer) => setTags(answer.data),
      (failure) => setError(isApiFailure(failure) ? failure.message : 'The tags could not be read: try again'),
    );
  const apply = () =>
    startTransition(async () => {
      if (!chosen) return setError('Choose a tag first');
      setError(null);
      try {
        const body = whole && query !== null ? { query } : { ids: selected };
        const answer = await apiGet<{ data: { changed: number; asked: number } }>(
          `/api/tags/${encodeURIComponent(chosen)}/collections`,
          { method: 'POST', body },
        );
        setOpen(false);
        const { changed, asked } = answer.data;
        onDone(
          `Tagged ${changed.toLocaleString('en')} of ${asked.toLocaleString('en')} collections ${chosen}${changed < asked ? ' (the rest held it already)' : ''}`,
        );
      } catch (failure) {
        setError(isApiFailure(failure) ? failure.message : 'The collections could not be tagged: try again');
      }
    });
  useEffect(() => {
    if (initialOpen) void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when it mounts open (clicked before it loaded)
  }, []);
  const many = whole && query !== null ? count : selected.length;
  return (
    <Popover
      label={tagSelectedLabel(selected.length)}
      open={open}
      focusOnMount={focusOnMount}
      onOpenChange={(next) => {
        setOpen(next);
        if (next && !tags) void load();
      }}
      buttonClassName={TAG_SELECTED_BUTTON}
      panelClassName="right-0 w-72"
    >
      {tags === null && !error ? <p className="text-sm">Reading the tags…</p> : null}
      {tags?.length === 0 ? <p className="text-sm">No tags yet: an admin adds them on Tags.</p> : null}
      {tags?.length ? (
        <fieldset>
          <legend className="mb-2 text-sm font-medium">Tag to put on</legend>
          <ul className="max-h-56 space-y-1 overflow-y-auto">
            {tags.map((tag) => (
              <li key={tag.name}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="bulk-tag"
                    checked={chosen === tag.name}
                    onChange={() => setChosen(tag.name)}
                  />
                  {tagChip(tag)}
                </label>
              </li>
            ))}
          </ul>
          {query !== null ? (
            <label className="mt-2 flex items-center gap-2 text-sm">
              <input type="checkbox" checked={whole} onChange={(e) => setWhole(e.target.checked)} />
              Every collection in this list ({count.toLocaleString('en')})
            </label>
          ) : null}
          <Button variant="primary" className="mt-3" onClick={apply} disabled={pending || !many} aria-busy={pending}>
            {`Tag ${many.toLocaleString('en')} ${many === 1 ? 'collection' : 'collections'}`}
          </Button>
        </fieldset>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </Popover>
  );
}
