import type { Point } from './points';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place between tags or inside a quoted attribute. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A chart table's body rows as markup: a heading cell per point, a value cell
 * per series. An all-time table can hold thousands of cells; as one string the
 * server renders it (and sends it in the page's payload) at a fraction of the
 * cost of an element per cell. Every piece of text is escaped here, and the
 * caller renders nothing else into the body.
 */
export function tableRowsHtml(
  points: Point[],
  series: string[],
  label: (date: string) => string,
  format: (value: number) => string,
): string {
  let html = '';
  for (const p of points) {
    html += `<tr><th scope="row">${escapeHtml(label(p.date))}</th>`;
    for (const s of series) html += `<td>${escapeHtml(format(p.values[s] ?? 0))}</td>`;
    html += '</tr>';
  }
  return html;
}
