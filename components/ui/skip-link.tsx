/**
 * "Skip to pagination": a link a keyboard user meets before a table's rows,
 * visible only when focused, so the next page is two Tab presses away rather
 * than a hundred rows of links and copy buttons.
 */
export function SkipToPagination() {
  return (
    <a
      href="#pagination"
      className="sr-only rounded bg-white px-3 py-1.5 text-sm font-medium text-sky-800 focus:not-sr-only focus:absolute focus:z-10 focus:outline-2 focus:outline-sky-600 dark:bg-zinc-900 dark:text-sky-300"
    >
      Skip to pagination
    </a>
  );
}
