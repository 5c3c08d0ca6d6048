'use client';

import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { nameProblem, VIEW_NAME_MAX } from '@/lib/api/views';

/**
 * A view's name, typed: for "Save view", "Save as" and "Rename view". A refusal (the server's: a name
 * taken) is shown under the field, which keeps what was typed; the same rules are checked before sending.
 */
export function ViewNameForm({
  initialName,
  submitLabel,
  canShare,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  initialName: string;
  submitLabel: string;
  /** Admins may share a new view with everyone at once. */
  canShare: boolean;
  busy: boolean;
  error: string | null;
  onSubmit: (name: string, shared: boolean) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initialName);
  const [shared, setShared] = useState(false);
  const [local, setLocal] = useState<string | null>(null);
  const id = useId();
  const problem = local ?? error;

  function submit(event: FormEvent) {
    event.preventDefault();
    const why = nameProblem(name);
    setLocal(why ? `Invalid name: ${why}` : null);
    if (!why) onSubmit(name, shared);
  }

  return (
    <form onSubmit={submit} className="space-y-2" noValidate>
      <label htmlFor={`${id}-name`} className="block text-xs font-medium">
        View name
      </label>
      <input
        id={`${id}-name`}
        autoFocus
        value={name}
        maxLength={VIEW_NAME_MAX + 20}
        onChange={(event) => {
          setName(event.target.value);
          setLocal(null);
        }}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
        className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950"
      />
      {problem ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-700 dark:text-red-300">
          {problem}
        </p>
      ) : null}
      {canShare ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={shared} onChange={(event) => setShared(event.target.checked)} />
          Share with everyone
        </label>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={busy}>
          {submitLabel}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
