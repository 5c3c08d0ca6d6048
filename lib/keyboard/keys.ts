/**
 * When a single-key shortcut (contract section 9) may act: never while the
 * user types (a field, an editable element, an open select), never with
 * Ctrl, Meta or Alt held (the browser's and the system's own combinations),
 * never on a repeat of a held key.
 */
export type KeyLike = {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  repeat?: boolean;
  defaultPrevented?: boolean;
  target: EventTarget | null;
};

const TYPING =
  'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="combobox"], [role="textbox"]';

export function isTyping(target: EventTarget | null): boolean {
  const el = target as { closest?: (selector: string) => unknown } | null;
  return Boolean(el && typeof el.closest === 'function' && el.closest(TYPING));
}

export function isShortcut(event: KeyLike): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || event.defaultPrevented) return false;
  return !isTyping(event.target);
}

/** `g` then a letter: where it goes. */
export const GO_TO: Record<string, string> = { o: '/overview', c: '/collections', l: '/lookup' };
/** How long after `g` the second key counts. */
export const GO_WINDOW_MS = 1500;
