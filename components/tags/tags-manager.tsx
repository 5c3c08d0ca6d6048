'use client';

import { useId, useState, useTransition } from 'react';
import { useRouter } from '@/components/account/account-scope';
import { Button } from '@/components/ui/button';
import { TAG_COLOURS, tagNameProblem, type TagColour } from '@/lib/api/annotations';
import { isApiFailure } from '@/lib/api/failure';
import { apiGet } from '@/lib/query/api-client';

const FIELD =
  'rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

/** Runs a change to the vocabulary and reads the page again; its refusal is said beside it. */
function useChange() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const run = (change: () => Promise<unknown>, after?: () => void) =>
    startTransition(async () => {
      setError(null);
      try {
        await change();
        after?.();
        router.refresh();
      } catch (failure) {
        setError(isApiFailure(failure) ? failure.message : 'That did not work: try again');
      }
    });
  return { pending, error, run };
}

function ColourSelect({
  value,
  onChange,
  label,
}: {
  value: TagColour;
  onChange: (c: TagColour) => void;
  label: string;
}) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value as TagColour)} className={FIELD}>
      {TAG_COLOURS.map((c) => (
        <option key={c} value={c}>
          {c[0]!.toUpperCase() + c.slice(1)}
        </option>
      ))}
    </select>
  );
}

/** "Add a tag" (admins): a name of letters, digits, - and _, and a colour. */
export function TagForm() {
  const [name, setName] = useState('');
  const [colour, setColour] = useState<TagColour>('grey');
  const { pending, error, run } = useChange();
  const field = useId();
  return (
    <form
      aria-label="Add a tag"
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const problem = tagNameProblem(name.trim());
        if (problem) {
          run(() => Promise.reject({ code: 'bad_request', message: `Invalid name: ${problem}` }));
          return;
        }
        run(
          () => apiGet('/api/tags', { method: 'POST', body: { name: name.trim(), colour } }),
          () => setName(''),
        );
      }}
    >
      <span className="flex flex-col">
        <label htmlFor={field} className="text-sm font-medium">
          Tag name
        </label>
        <input
          id={field}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={60}
          className={FIELD}
          aria-invalid={error ? true : undefined}
        />
      </span>
      <ColourSelect value={colour} onChange={setColour} label="Colour" />
      <Button type="submit" variant="primary" disabled={pending} aria-busy={pending}>
        Add tag
      </Button>
      {error ? (
        <p role="alert" className="w-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** A tag's colour and its deletion (admins): deleting takes it off every collection, after a confirmation. */
export function TagRowActions({ name, colour }: { name: string; colour: TagColour }) {
  const [chosen, setChosen] = useState(colour);
  const [confirming, setConfirming] = useState(false);
  const { pending, error, run } = useChange();
  const path = `/api/tags/${encodeURIComponent(name)}`;
  return (
    <span className="flex flex-wrap items-center gap-2">
      <ColourSelect value={chosen} onChange={setChosen} label={`Colour of ${name}`} />
      <Button
        disabled={pending || chosen === colour}
        onClick={() => run(() => apiGet(path, { method: 'PUT', body: { colour: chosen } }))}
        aria-label={`Save colour of ${name}`}
      >
        Save
      </Button>
      {confirming ? (
        <>
          <Button
            variant="primary"
            disabled={pending}
            onClick={() => run(() => apiGet(path, { method: 'DELETE' }))}
            aria-label={`Delete ${name} from every collection`}
          >
            Delete from every collection
          </Button>
          <Button onClick={() => setConfirming(false)}>Keep</Button>
        </>
      ) : (
        <Button variant="ghost" onClick={() => setConfirming(true)} aria-label={`Delete tag ${name}`}>
          Delete
        </Button>
      )}
      {error ? (
        <span role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </span>
      ) : null}
    </span>
  );
}
