import { MAX_QUERY } from '@/lib/api/list-state';
import { AccountField } from '@/components/account/account-scope';

/**
 * A search over the API's 200 characters (issue 75): said, never an empty page, and the text kept in a box of
 * its own to shorten and search again (a plain form: it works before the page's scripts load).
 */
export function SearchTooLong({ text }: { text: string }) {
  return (
    <div
      role="status"
      className="rounded-lg border border-amber-300 bg-amber-50 px-6 py-6 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-medium">
        That search is too long: {text.length} characters, and a search takes at most {MAX_QUERY}.
      </p>
      <p className="mt-1">Shorten it here, to a name, an e-mail, a phone number or a reference, and search again.</p>
      <form action="/search" className="mt-3 flex flex-wrap items-start gap-2">
        <AccountField />
        <textarea
          name="q"
          defaultValue={text}
          aria-label="Your search, to shorten"
          rows={3}
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-zinc-900 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <button
          type="submit"
          className="rounded-md bg-zinc-900 px-3 py-1.5 font-medium text-white dark:bg-zinc-100 dark:text-zinc-900"
        >
          Search again
        </button>
      </form>
    </div>
  );
}
