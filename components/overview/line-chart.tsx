import 'server-only';
import { scaleLinear, scaleUtc } from 'd3-scale';
import { line } from 'd3-shape';
import { formatDay } from '@/lib/format/dates';
import { tableRowsHtml } from '@/lib/overview/table-html';
import { seriesStyles } from './series-style';

/** One x position: a day (or the first day of a month or year) and each series' value there. */
export type ChartPoint = { date: string; values: Record<string, number> };
export type ChartBucket = 'day' | 'month' | 'year';

const WIDTH = 480;
const HEIGHT = 200;
const MARGIN = { top: 10, right: 14, bottom: 26, left: 58 };
const at = (date: string) => new Date(`${date}T00:00:00.000Z`);

/**
 * A line chart drawn on the server: SVG from d3-scale and d3-shape, no script
 * in the browser. It carries its title, a text summary for everyone (and as
 * the image's description), a legend that names each line by text and dash
 * pattern, and the same numbers as a table behind "Show as table".
 */
export function LineChart({
  id,
  title,
  summary,
  series,
  points,
  bucket,
  format,
  formatAxis = format,
  unit,
}: {
  id: string;
  title: string;
  summary: string;
  series: string[];
  points: ChartPoint[];
  bucket: ChartBucket;
  /** A value as the axis, the table and the summary print it. */
  format: (value: number) => string;
  /** The same on the value axis, where room is short (e.g. "1.2M"). */
  formatAxis?: (value: number) => string;
  /** The table's heading for the values, e.g. "Collections created". */
  unit: string;
}) {
  const styles = seriesStyles(series);
  const first = points[0] ? at(points[0].date) : new Date();
  const last = points.length ? at(points[points.length - 1]!.date) : first;
  // One point still gets a width: half a bucket either side.
  const pad = points.length > 1 ? 0 : 43_200_000;
  const x = scaleUtc()
    .domain([first.getTime() - pad, last.getTime() + pad])
    .range([MARGIN.left, WIDTH - MARGIN.right]);
  const max = Math.max(0, ...points.flatMap((p) => series.map((s) => p.values[s] ?? 0)));
  const y = scaleLinear()
    .domain([0, max || 1])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const draw = (name: string) =>
    line<ChartPoint>()
      // A tenth of a unit is finer than any screen shows: shorter paths, smaller pages.
      .digits(1)
      .x((p) => x(at(p.date)))
      .y((p) => y(p.values[name] ?? 0))(points) ?? '';
  // Four ticks at most: the labels stay apart on a phone, where the chart is drawn smaller.
  const xTicks = x.ticks(Math.min(4, Math.max(1, points.length)));
  const markers = points.length <= 31;

  return (
    <figure
      aria-labelledby={`${id}-title`}
      className="min-w-0 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
    >
      <figcaption>
        <h3 id={`${id}-title`} className="text-sm font-semibold">
          {title}
        </h3>
        <p id={`${id}-summary`} className="mt-0.5 text-sm text-zinc-700 dark:text-zinc-300">
          {summary}
        </p>
      </figcaption>
      {/* Text is sized in the drawing's units: larger ones on a phone, where the drawing is scaled down. */}
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-summary`}
        className="mt-2 h-auto w-full overflow-visible text-[11px] max-sm:text-[17px]"
      >
        {/* Counts and amounts are whole numbers: so are the axis's ticks (never 0.2 … 1 collections). */}
        {y
          .ticks(4)
          .filter(Number.isInteger)
          .map((t) => (
            <g key={t}>
              <line
                x1={MARGIN.left}
                x2={WIDTH - MARGIN.right}
                y1={y(t)}
                y2={y(t)}
                className="stroke-zinc-200 dark:stroke-zinc-800"
              />
              <text
                x={MARGIN.left - 6}
                y={y(t)}
                dy="0.32em"
                textAnchor="end"
                className="fill-zinc-600 dark:fill-zinc-400"
              >
                {formatAxis(t)}
              </text>
            </g>
          ))}
        {xTicks.map((t) => (
          <text
            key={t.getTime()}
            x={x(t)}
            y={HEIGHT - 8}
            textAnchor="middle"
            className="fill-zinc-600 dark:fill-zinc-400"
          >
            {formatDay(t.toISOString().slice(0, 10), bucket)}
          </text>
        ))}
        <line
          x1={MARGIN.left}
          x2={WIDTH - MARGIN.right}
          y1={HEIGHT - MARGIN.bottom}
          y2={HEIGHT - MARGIN.bottom}
          className="stroke-zinc-400 dark:stroke-zinc-600"
        />
        {series.map((name) => {
          const style = styles.get(name)!;
          return (
            // The markers take their fill from the group: no class per circle.
            <g key={name} className={style.fill}>
              <path
                d={draw(name)}
                fill="none"
                strokeWidth={2}
                strokeDasharray={style.dash || undefined}
                strokeLinejoin="round"
                className={style.stroke}
              />
              {markers
                ? points.map((p) => <circle key={p.date} cx={x(at(p.date))} cy={y(p.values[name] ?? 0)} r={2.5} />)
                : null}
            </g>
          );
        })}
      </svg>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-700 dark:text-zinc-300" aria-label="Legend">
        {series.map((name) => {
          const style = styles.get(name)!;
          return (
            <li key={name} className="flex items-center gap-1.5">
              <svg width="24" height="8" aria-hidden="true">
                <line
                  x1="0"
                  x2="24"
                  y1="4"
                  y2="4"
                  strokeWidth={2}
                  strokeDasharray={style.dash || undefined}
                  className={style.stroke}
                />
              </svg>
              {name}
            </li>
          );
        })}
      </ul>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer rounded text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400">
          Show as table
        </summary>
        <div className="mt-2 max-h-80 overflow-auto">
          {/* Styled from the table (no class per cell): an all-time table can have hundreds of rows. */}
          <table className="w-full text-left text-xs tabular-nums [&_td]:py-1 [&_td]:pr-3 [&_td]:text-right [&_th]:py-1 [&_th]:pr-3 [&_tr]:border-b [&_tr]:border-zinc-100 dark:[&_tr]:border-zinc-900 [&_tbody_th]:font-normal [&_thead_th]:font-medium [&_thead_th:not(:first-child)]:text-right">
            <caption className="sr-only">
              {title}: {unit}
            </caption>
            <thead>
              <tr>
                <th scope="col">{bucket === 'day' ? 'Day (UTC)' : bucket === 'month' ? 'Month' : 'Year'}</th>
                {series.map((s) => (
                  <th key={s} scope="col">
                    {s}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody
              // Markup from tableRowsHtml, which escapes every text in it.
              dangerouslySetInnerHTML={{
                __html: tableRowsHtml(
                  points,
                  series,
                  (date) => formatDay(date, bucket === 'day' ? 'full' : bucket),
                  format,
                ),
              }}
            />
          </table>
        </div>
      </details>
    </figure>
  );
}
