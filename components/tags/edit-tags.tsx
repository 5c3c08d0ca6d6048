'use client';

import { useState, useTransition } from 'react';
import type { DeferredProps } from '@/components/ui/deferred';
import { EDIT_TAGS_BUTTON } from './tag-buttons';
import Link, { useRouter } from '@/components/account/account-scope';
import { Button } from '@/components/ui/button';
import { Popover } from '@/components/ui/popover';
import type { TagColour } from '@/lib/api/annotations';
import { isApiFailure } from '@/lib/api/failure';
import { apiGet } from '@/lib/query/api-client';
import { tagChip } from './tag-chip';

type TagOption = { name: string; colour: TagColour };

/**
 * "Edit tags" on a record (section 16): the account's tags as checkboxes, those it holds ticked; "Save tags"
 * sets them whole and the page is read again. Anyone signed in may; the vocabulary is the admins' (Tags).
 */
export type EditTagsProps = { id: string; vocabulary: TagOption[]; held: string[] };

export default function EditTags({
  id,
  vocabulary,
  held,
  initialOpen = false,
  focusOnMount = false,
}: EditTagsProps & DeferredProps) {
  const router = useRouter();
  const [open, setOpen] = useState(initialOpen);
  const [chosen, setChosen] = useState(() => new Set(held));
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const save = () =>
    startTransition(async () => {
      setError(null);
      try {
        await apiGet(`/api/collections/${encodeURIComponent(id)}/tags`, {
          method: 'PUT',
          body: { tags: vocabulary.filter((t) => chosen.has(t.name)).map((t) => t.name) },
        });
        setOpen(false);
        router.refresh();
      } catch (failure) {
        setError(isApiFailure(failure) ? failure.message : 'The tags could not be saved: try again');
      }
    });
  return (
    <Popover
      label="Edit tags"
      open={open}
      focusOnMount={focusOnMount}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setChosen(new Set(held));
      }}
      buttonClassName={EDIT_TAGS_BUTTON}
      panelClassName="w-72"
    >
      {vocabulary.length ? (
        <fieldset>
          <legend className="mb-2 text-sm font-medium">Tags of this collection</legend>
          <ul className="max-h-64 space-y-1 overflow-y-auto">
            {vocabulary.map((tag) => (
              <li key={tag.name}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={chosen.has(tag.name)}
                    onChange={(event) => {
                      const next = new Set(chosen);
                      if (event.target.checked) next.add(tag.name);
                      else next.delete(tag.name);
                      setChosen(next);
                    }}
                  />
                  {tagChip(tag)}
                </label>
              </li>
            ))}
          </ul>
          {error ? (
            <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          ) : null}
          <div className="mt-3 flex gap-2">
            <Button variant="primary" onClick={save} disabled={pending} aria-busy={pending}>
              Save tags
            </Button>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
          </div>
        </fieldset>
      ) : (
        <p className="text-sm">
          No tags yet: an admin adds them on{' '}
          <Link href="/tags" className="font-medium text-sky-800 underline dark:text-sky-300">
            Tags
          </Link>
          .
        </p>
      )}
    </Popover>
  );
}
