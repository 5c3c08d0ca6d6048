'use client';

import { useState, useTransition } from 'react';
import { useRouter } from '@/components/account/account-scope';
import { Button } from '@/components/ui/button';
import { isApiFailure } from '@/lib/api/failure';
import { apiGet } from '@/lib/query/api-client';

/** "Delete note" on a note the reader may delete (its author within 15 minutes, an admin): the page is read again. */
export function DeleteNoteButton({ id, author }: { id: string; author: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button
        variant="ghost"
        className="px-2 py-0.5 text-xs"
        aria-label={`Delete note by ${author}`}
        disabled={pending}
        aria-busy={pending}
        onClick={() =>
          startTransition(async () => {
            setError(null);
            try {
              await apiGet(`/api/notes/${encodeURIComponent(id)}`, { method: 'DELETE' });
              router.refresh();
            } catch (failure) {
              setError(isApiFailure(failure) ? failure.message : 'The note could not be deleted: try again');
            }
          })
        }
      >
        Delete note
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </span>
      ) : null}
    </span>
  );
}
