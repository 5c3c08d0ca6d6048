import { GO_TO, GO_WINDOW_MS, isShortcut } from '@/lib/keyboard/keys';

/**
 * What the shell's single-key shortcuts do, loaded on the first key that could
 * be one (components/keyboard/shortcuts.tsx): `?` for the list of them, `g`
 * then `o` / `c` / `l` to go places, `j` / `k` between a table's rows.
 */
const ROWS = '[data-trail] tbody tr';
let goAt = 0;

/** Moves the focus to the next or previous row of the page's table (its first link), from the focused one. */
function moveRow(step: 1 | -1): void {
  const rows = [...document.querySelectorAll<HTMLTableRowElement>(ROWS)].filter((r) => r.querySelector('a[href]'));
  if (!rows.length) return;
  const current = rows.findIndex((r) => r.contains(document.activeElement));
  const next =
    current < 0 ? (step === 1 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, current + step));
  const link = rows[next]!.querySelector<HTMLAnchorElement>('a[href]')!;
  link.focus();
  link.scrollIntoView({ block: 'nearest' });
}

export function handleKey(event: KeyboardEvent, actions: { go: (href: string) => void; help: () => void }): void {
  if (!isShortcut(event)) return;
  const go = Date.now() - goAt < GO_WINDOW_MS;
  goAt = 0;
  if (go && GO_TO[event.key]) actions.go(GO_TO[event.key]!);
  else if (event.key === 'g') goAt = Date.now();
  else if (event.key === '?') actions.help();
  else if (event.key === 'j' || event.key === 'k') moveRow(event.key === 'j' ? 1 : -1);
}
