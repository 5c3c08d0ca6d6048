/**
 * How a status looks in the overview's charts: a colour with 3:1 contrast on
 * the page in light and dark, and a dash pattern of its own, so the lines tell
 * apart without colour too (the legend shows both). Known statuses keep their
 * look across charts; other values take the next free style.
 */
export type SeriesStyle = { stroke: string; fill: string; dash: string };

const KNOWN: Record<string, SeriesStyle> = {
  completed: {
    stroke: 'stroke-emerald-700 dark:stroke-emerald-400',
    fill: 'fill-emerald-700 dark:fill-emerald-400',
    dash: '',
  },
  pending: {
    stroke: 'stroke-amber-600 dark:stroke-amber-400',
    fill: 'fill-amber-600 dark:fill-amber-400',
    dash: '7 4',
  },
  expired: { stroke: 'stroke-zinc-500 dark:stroke-zinc-400', fill: 'fill-zinc-500 dark:fill-zinc-400', dash: '2 3' },
  cancelled: {
    stroke: 'stroke-fuchsia-700 dark:stroke-fuchsia-400',
    fill: 'fill-fuchsia-700 dark:fill-fuchsia-400',
    dash: '9 3 2 3',
  },
  on_hold: { stroke: 'stroke-sky-700 dark:stroke-sky-400', fill: 'fill-sky-700 dark:fill-sky-400', dash: '4 2' },
};

const OTHERS: SeriesStyle[] = [
  { stroke: 'stroke-blue-700 dark:stroke-blue-400', fill: 'fill-blue-700 dark:fill-blue-400', dash: '12 3' },
  { stroke: 'stroke-violet-700 dark:stroke-violet-400', fill: 'fill-violet-700 dark:fill-violet-400', dash: '1 3' },
  { stroke: 'stroke-teal-700 dark:stroke-teal-400', fill: 'fill-teal-700 dark:fill-teal-400', dash: '6 2 1 2' },
  { stroke: 'stroke-orange-700 dark:stroke-orange-400', fill: 'fill-orange-700 dark:fill-orange-400', dash: '3 6' },
];

/** Each name's style, in the order given. */
export function seriesStyles(names: string[]): Map<string, SeriesStyle> {
  let next = 0;
  return new Map(names.map((name) => [name, KNOWN[name] ?? OTHERS[next++ % OTHERS.length]!]));
}
