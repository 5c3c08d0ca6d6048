'use client';

import { useId, useState, useTransition } from 'react';
import { useRouter } from '@/components/account/account-scope';
import { Button } from '@/components/ui/button';
import { NOTE_MAX, noteProblem } from '@/lib/api/annotations';
import { isApiFailure } from '@/lib/api/failure';
import { apiGet } from '@/lib/query/api-client';

/**
 * "Add a note" and "Add note" (section 16): the note is sent as JSON and the page read again, so the list above
 * shows it where everyone else will see it. A refusal (empty, too long, the record gone) is said under the box,
 * and the text stays in it.
 */
export function AddNoteForm({ path, hint }: { path: string; hint: string }) {
  const router = useRouter();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const box = useId();
  const help = useId();
  const left = NOTE_MAX - [...text].length;
  return (
    <form
      className="mt-4 space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        const problem = noteProblem(text);
        if (problem) {
          setError(`The note’s ${problem.replace(/^text/, 'text')}`);
          return;
        }
        startTransition(async () => {
          setError(null);
          try {
            await apiGet(path, { method: 'POST', body: { text } });
            setText('');
            router.refresh();
          } catch (failure) {
            setError(isApiFailure(failure) ? failure.message : 'The note could not be added: try again');
          }
        });
      }}
    >
      <label htmlFor={box} className="block text-sm font-medium">
        Add a note
      </label>
      <textarea
        id={box}
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={3}
        aria-describedby={help}
        aria-invalid={error ? true : undefined}
        className="block w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      />
      <p id={help} className="text-xs text-zinc-600 dark:text-zinc-400">
        {hint} Plain text; links are made clickable.{' '}
        <span className={left < 0 ? 'font-medium text-red-700 dark:text-red-400' : ''}>
          {left.toLocaleString('en')} characters left.
        </span>
      </p>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="primary" disabled={pending} aria-busy={pending}>
        Add note
      </Button>
    </form>
  );
}
