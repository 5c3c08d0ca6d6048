import Link from '@/components/account/account-scope';
import type { SearchReading } from '@/lib/api/summary';

/**
 * A search that found nothing says how it read the text and what to try next (contract section 7a): "Read
 * as a phone number in Nigeria (+234): 0803 123 4567", then "Try 4567: its last four digits".
 */
export function NothingFound({ reading, indexed }: { reading: SearchReading | null; indexed: number }) {
  const searched = `${indexed.toLocaleString('en')} indexed collections`;
  if (!reading)
    return (
      <p>
        Searched ids, e-mail addresses, phone numbers (and their last four digits), names and references of {searched}.
      </p>
    );
  return (
    <div className="space-y-2">
      <p>
        Searched {searched}. Read as {reading.readAs.join('; ')}.
      </p>
      {reading.next.length ? (
        <ul aria-label="Try instead" className="space-y-1">
          {reading.next.map((n) => (
            <li key={n.q}>
              Try{' '}
              <Link
                href={`/search?${new URLSearchParams({ q: n.q })}`}
                className="font-medium text-sky-800 underline dark:text-sky-300"
              >
                {n.q}
              </Link>
              : {n.why}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
