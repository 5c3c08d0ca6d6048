/** The Display button's face, the same before and after its menu's code loads (display-menu.tsx). */
export const DISPLAY_LABEL = (
  <>
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M2 4h7m3 0h2M2 8h2m3 0h7M2 12h9m3 0h0" />
      <circle cx="10.5" cy="4" r="1.5" />
      <circle cx="5.5" cy="8" r="1.5" />
      <circle cx="12.5" cy="12" r="1.5" />
    </svg>
    <span>Display</span>
  </>
);

export const DISPLAY_BUTTON =
  'rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';
