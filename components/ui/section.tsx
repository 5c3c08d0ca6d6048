import type { ReactNode } from 'react';

/** A titled card; the heading names the region for screen readers. */
export function Section({
  title,
  id,
  children,
  aside,
}: {
  title: string;
  id: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id={id} className="font-semibold">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** Term/definition rows for a record's fields. */
export function Fields({ children }: { children: ReactNode }) {
  return (
    // On a phone the term sits above its value, which gets the card's whole width (ids, e-mails).
    <dl className="grid content-start grid-cols-1 gap-x-4 text-sm sm:grid-cols-[minmax(7rem,max-content)_1fr] sm:gap-y-2">
      {children}
    </dl>
  );
}

export function Field({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="mb-2 min-w-0 sm:mb-0">{children}</dd>
    </>
  );
}
