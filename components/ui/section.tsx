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
    <dl className="grid content-start grid-cols-[minmax(7rem,max-content)_1fr] gap-x-4 gap-y-2 text-sm">{children}</dl>
  );
}

export function Field({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}
