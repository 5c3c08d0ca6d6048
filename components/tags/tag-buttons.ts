/** The tag controls' buttons, shared by each deferred placeholder and the control that takes its place. */
export const TAG_SELECTED_BUTTON =
  'rounded-md border border-zinc-300 px-2 py-1 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900';
export const EDIT_TAGS_BUTTON =
  'rounded-md px-2 py-1 text-sm font-medium ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50 dark:ring-zinc-700 dark:hover:bg-zinc-800';
export const tagSelectedLabel = (n: number) => (n ? `Tag selected (${n})` : 'Tag selected');
