'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { hrefForId, parseOpenTarget } from '@/lib/api/open-target';
import { focusRing } from '@/components/ui/button';

/**
 * "Open by ID": paste an id or a dashboard link, press Enter. `/` focuses it
 * from anywhere but a text field. In sandbox mode a few real ids are offered.
 */
export function OpenById({ examples }: { examples: string[] }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<string | null>(null);
  const hintId = useId();

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = parseOpenTarget(input.current?.value ?? '');
    if (!target.ok) {
      setMessage(target.message);
      return;
    }
    setMessage(null);
    if (input.current) input.current.value = '';
    input.current?.blur();
    router.push(target.href);
  }

  return (
    <div className="relative w-full sm:max-w-sm">
      <form role="search" onSubmit={submit} className="flex items-center">
        <label htmlFor="open-by-id" className="sr-only">
          Open by ID
        </label>
        <input
          ref={input}
          id="open-by-id"
          name="id"
          type="search"
          autoComplete="off"
          spellCheck={false}
          placeholder="Open by ID  (pay_… or prv_…)"
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? hintId : undefined}
          onChange={() => message && setMessage(null)}
          className={`w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 pr-8 font-mono text-sm placeholder:font-sans placeholder:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 ${focusRing}`}
        />
        <kbd
          aria-hidden="true"
          className="pointer-events-none absolute right-2 hidden rounded border border-zinc-300 px-1 text-xs text-zinc-500 sm:block dark:border-zinc-700"
        >
          /
        </kbd>
      </form>
      <p id={hintId} aria-live="polite" className="mt-1 text-xs text-red-700 dark:text-red-300">
        {message}
      </p>
      {examples.length ? (
        <p className="mt-1 hidden text-xs text-zinc-600 md:block dark:text-zinc-400">
          <span>Sandbox examples: </span>
          {examples.map((id, i) => (
            <span key={id}>
              {i ? ', ' : ''}
              <Link
                prefetch={false}
                href={hrefForId(id) ?? '#'}
                className="font-mono underline decoration-dotted hover:text-zinc-900 dark:hover:text-zinc-100"
              >
                {id}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
