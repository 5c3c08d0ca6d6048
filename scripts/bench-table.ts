/**
 * `npx tsx scripts/bench-table.ts [--write]`: one Markdown table of the headline figures in bench/results*.json
 * (what `npm run bench`, `bench:index`, `soak` and `bench:history` last wrote), each section headed by the
 * date and machine its file records. Prints the table; with --write it also replaces the text between
 * `<!-- bench-table:start -->` and `<!-- bench-table:end -->` in bench/README.md (which must hold them) and in
 * README.md (when it holds them), and nothing else in either file.
 *
 * Which figures, and their goals, are the lists below; a figure a file does not hold shows as "–".
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START = '<!-- bench-table:start -->';
const END = '<!-- bench-table:end -->';

/** A figure as scripts/bench.ts and bench-index.ts record it: a value, or ours against a floor. */
type Figure = { value?: number | string; ours?: number; floor?: number; ratio?: number; unit?: string };
type Machine = { cpus: number; node: string; date: string };
type SoakPhase = {
  phase: string;
  minutes: number;
  users: number;
  eventLoopDelayMs: { p99: number; max: number };
  healthP99Ms: number;
  errors: number;
  faultErrors: number;
  rssMb: { start: number; peak: number; end: number };
  byKind: { kind: string; p95: number; p99: number }[];
  restartS: number | null;
};
type History = {
  records: number;
  changed: number;
  rounds: number;
  historyShareOfAChangedWrite: number;
  historyMsPerChange: number;
  week: { completions: number; bytes: number; bytesPerEntry: number };
};
/** A row: its label, the figures it joins (keys without a store's mark, or patterns), and its goal. */
type Spec = { label: string; keys: (string | RegExp)[]; goal?: string; show?: (parts: string[]) => string };
type Row = [label: string, sqlite: string, postgres: string, goal: string];

const NONE = '–';
const num = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 2 });
/** The second value of "slowest / p99" strings is left out: the slowest answer is the figure the goal bounds. */
const beside = ([search, health]: string[]) =>
  health === NONE ? search! : `${search} (health ≤ ${health!.split(' / ')[0]!.replace(/ ms$/, '')} ms)`;

const budgets = JSON.parse(readFileSync(`${ROOT}bench/budgets.json`, 'utf8')) as Record<string, number>;
const budget = (page: string) => (budgets[page] ? `≤ ${num(budgets[page])} B (budgets.json)` : '');

/** scripts/bench.ts's page figures (results.json, results-pages.json): ours against the bare Next.js floor. */
const PAGES: Spec[] = [
  { label: 'first-load JS `/collections` (gzip)', keys: ['first-load JS /collections'], goal: budget('/collections') },
  {
    label: 'first-load JS `/collections/{id}`',
    keys: ['first-load JS /collections/{id}'],
    goal: budget('/collections/{id}'),
  },
  { label: 'first-load JS `/search`', keys: ['first-load JS /search'], goal: budget('/search') },
  { label: 'first-load JS `/overview`', keys: ['first-load JS /overview'], goal: budget('/overview') },
  { label: 'rows visible, `/collections?limit=100`, cold', keys: ['rows visible /collections?limit=100'] },
  { label: 'main content visible, `/collections/{id}`', keys: ['main content visible /collections/{id}'] },
  { label: 'first result visible, `/search`', keys: ['first result visible /search'] },
  {
    label: '"Next page", prefetch on / off',
    keys: ['next page visible, prefetch on', 'next page visible, prefetch off'],
  },
  {
    label: 'Lighthouse mobile performance, `/collections`',
    keys: ['lighthouse mobile performance /collections'],
    goal: '≥ floor − 5',
  },
  { label: 'CPU per request, `/api/collections?limit=100`', keys: ['CPU/request /api/collections?limit=100'] },
  { label: 'CPU per request, `/api/collections/{id}`', keys: ['CPU/request /api/collections/{id}'], goal: '≤ 1.5×' },
  { label: 'load test: peak RSS round 1 / round 2', keys: ['load test: peak RSS round 1 / round 2'], goal: '≤ 500 MB' },
];

/** bench-index.ts's figures (results-index.json, or a full run's results.json), SQLite's and PostgreSQL's. */
const INDEX: Spec[] = [
  {
    label: "the machine's pace: `bench:writes`, 100,000 records, time / CPU",
    keys: [/^machine: a first scan's writes alone/],
  },
  {
    label: 'first sync of the sandbox, unpaced',
    keys: [/^index: full sync of [\d,]+ collections$/, 'index: sync rate'],
    show: ([time, rate]) => `${time} (${rate})`,
    goal: '≤ 4 min / ≤ 5 min',
  },
  {
    label: 'RSS growth during the first sync',
    keys: ['index: dashboard RSS growth during the sync'],
    goal: '≤ 300 MB',
  },
  {
    label: "the sandbox's CPU during it (the upstream's pace)",
    keys: ["upstream: the sandbox's CPU during the first sync"],
  },
  { label: 'slowest `/api/index/status` during it', keys: ['index: slowest /api/index/status answer during the sync'] },
  {
    label: '`GET /api/views` during it, p50 / p95 / max',
    keys: ['index: GET /api/views during the sync, p50 / p95 / max (answers)'],
  },
  {
    label: 'a view saved during it, p50 / p95 / max',
    keys: ['index: a view saved during the sync, p50 / p95 / max (saves)'],
  },
  { label: 'size on disk', keys: ['index: size on disk'] },
  ...[
    'e-mail',
    'phone',
    'last four',
    'national phone',
    'reference prefix',
    'reference fragment, 3 characters',
    'reference fragment, 5 characters',
    'name tokens',
    'one name word',
    'name prefix, 3 letters',
    'name sounds like',
    'e-mail local part',
    'no match',
  ].map((kind) => ({ label: `search p95: ${kind}`, keys: [`index: /api/search p95, ${kind}`], goal: '≤ 30 ms' })),
  ...[
    'one name word, page 50',
    'a common first name, page 1',
    'a common first name, page 50',
    'a common first name by amount, page 50',
    'a common first name, last updated first',
    'a fragment most references hold',
    'a reference prefix at the far end',
  ].map((kind) => ({
    label: `search p95, adversarial: ${kind}`,
    keys: [`index: /api/search p95, ${kind}`, `index: /api/health beside ${kind}, slowest / p99`],
    show: beside,
    goal: '≤ 100 ms (health ≤ 150)',
  })),
  {
    label: 'filtered list p95: first / middle / last of 119 pages',
    keys: ['first', 'middle', 'last'].map((at) => `index: filtered /api/collections p95, ${at} page of 119`),
    goal: '≤ 100 ms',
  },
  {
    label: 'filtered list p95: NGN completed in 90 days / ever',
    keys: [
      'index: filtered /api/collections p95, NGN completed in the last 90 days',
      'index: filtered /api/collections p95, every completed NGN collection',
    ],
    goal: '≤ 100 ms',
  },
  {
    label: 'list page p50 beside a sync at 5 rps, vs the index off',
    keys: ['index: list page p50, sync running at 5 rps vs index off'],
    goal: '≤ 1.2×',
  },
  {
    label: 'saved view vs the same state in the URL, p50 / p95',
    keys: [
      'views: /collections?view=<id> vs the same state in the URL, p50',
      'views: /collections?view=<id> vs the same state in the URL, p95',
    ],
    goal: '≤ 1.1×',
  },
  {
    label: '`/contacts/{id}` render p95, a customer of 500 collections',
    keys: ['contacts: /contacts/{id} server render p95, a customer of 500 collections'],
    goal: '≤ 100 ms',
  },
  {
    label: '`/api/collections/{id}/history` p95',
    keys: [/^history: \/api\/collections\/\{id\}\/history p95/],
    goal: '≤ 10 ms',
  },
  {
    label: '`/overview` render p95: 30 days / all time',
    keys: ['overview: /overview?range=30d server render p95', 'overview: /overview?range=all server render p95'],
    goal: '≤ 150 ms',
  },
  {
    label: 'a ticket of findings looked up, wall time / each p95',
    keys: [/^lookup: a ticket of \d+ findings/, /^lookup: each finding/],
  },
  {
    label: 'export of every row with contacts',
    keys: [/^export: [\d,]+ rows with contacts, from the index$/],
    goal: '≥ 50,000 rows/s',
  },
  {
    label: 'RSS growth during that export',
    keys: ['export: dashboard RSS growth while exporting them'],
    goal: '≤ 64 MB',
  },
  {
    label: 'search p50 beside another client’s download, vs alone',
    keys: ['export: /api/search p50 while another client downloads an export vs alone'],
  },
  {
    label: 'added upstream until search finds it',
    keys: ['index: freshness, added upstream to found by search (defaults)'],
    goal: '≤ 60 s',
  },
];

const SOAK_PHASES: Record<string, string> = {
  none: 'no fault',
  slow: 'upstream 2.5 s late',
  '5xx': '503 bursts, 10 s of every 30',
  postgres: 'PostgreSQL restarted under the replica',
};

function shown(f: Figure | undefined): string {
  if (!f) return NONE;
  const unit = f.unit ? ` ${f.unit}` : '';
  if (f.ours !== undefined && f.floor !== undefined)
    return `${num(f.ours)} vs ${num(f.floor)}${unit} (${num(f.ratio ?? f.ours / f.floor)}×)`;
  // Strings such as "12.8 / 49.4 / 214.6 ms (772; …)": their explanation is the bench's, not the table's.
  const value = typeof f.value === 'number' ? num(f.value) : String(f.value ?? NONE).replace(/ \(.*\)$/, '');
  return `${value}${unit}`;
}

/** One store's figures of a bench.ts-shaped file, by key without the store's mark. */
function byStore(file: Record<string, unknown>, postgres: boolean): Map<string, Figure> {
  const out = new Map<string, Figure>();
  for (const [key, figure] of Object.entries(file)) {
    if (key === 'machine' || typeof figure !== 'object' || figure === null) continue;
    if (key.includes(' (PostgreSQL): ') === postgres) out.set(key.replace(' (PostgreSQL): ', ': '), figure as Figure);
  }
  return out;
}

function cell(spec: Spec, figures: Map<string, Figure>): string {
  const found = spec.keys.map((k) =>
    typeof k === 'string' ? figures.get(k) : [...figures].find(([name]) => k.test(name))?.[1],
  );
  if (found.every((f) => !f)) return NONE;
  const parts = found.map(shown);
  if (spec.show) return spec.show(parts);
  // Several figures of one unit: "119.7 / 111.5 / 111 ms".
  const units = new Set(found.map((f) => f?.unit));
  const plain = found.every((f) => f && f.ours === undefined) && units.size === 1;
  const unit = [...units][0];
  return plain && unit ? `${parts.map((p) => p.replace(` ${unit}`, '')).join(' / ')} ${unit}` : parts.join(' / ');
}

function benchRows(specs: Spec[], file: Record<string, unknown>): Row[] {
  const [sqlite, postgres] = [byStore(file, false), byStore(file, true)];
  return specs
    .map((s): Row => [s.label, cell(s, sqlite), cell(s, postgres), s.goal ?? ''])
    .filter(([, a, b]) => a !== NONE || b !== NONE);
}

function soakRows(phases: SoakPhase[]): Row[] {
  return phases.flatMap((p) => {
    const name = `soak, ${SOAK_PHASES[p.phase] ?? p.phase}${p.restartS ? ` (${p.restartS} s)` : ''}`;
    const search = p.byKind.find((k) => k.kind === 'search');
    const rows: [string, string, string][] = [
      ['event-loop delay p99 / max', `${p.eventLoopDelayMs.p99} / ${p.eventLoopDelayMs.max} ms`, '≤ 50 / ≤ 200 ms'],
      ['`/api/health` p99', `${p.healthP99Ms} ms`, '≤ 50 ms'],
      ['search p95 / p99', search ? `${search.p95} / ${search.p99} ms` : NONE, ''],
      [
        "errors (the fault's own); RSS start / peak / end",
        `${p.errors} (${p.faultErrors}); ${p.rssMb.start} / ${p.rssMb.peak} / ${p.rssMb.end} MB`,
        '0; flat after warm-up',
      ],
    ];
    // The PostgreSQL phase's index is PostgreSQL; the others' SQLite.
    return rows.map(([what, figure, goal]): Row =>
      p.phase === 'postgres' ? [`${name}: ${what}`, NONE, figure, goal] : [`${name}: ${what}`, figure, NONE, goal],
    );
  });
}

function historyRows(h: History): Row[] {
  const share = `${(h.historyShareOfAChangedWrite * 100).toFixed(1)} % (${h.historyMsPerChange.toFixed(3)} ms a change)`;
  const week = `${num(h.week.completions)} entries, ${(h.week.bytes / 2 ** 20).toFixed(1)} MiB (${Math.round(h.week.bytesPerEntry)} B an entry)`;
  return [
    [
      `history's share of writing a changed record (${num(h.changed)} of ${num(h.records)}, median of ${h.rounds})`,
      share,
      NONE,
      "≤ 10 % of the sync's time",
    ],
    ['history after a week of the sandbox’s activity mode', week, NONE, ''],
  ];
}

type SearchSideBySide = {
  at: string;
  cores: number;
  records: number;
  before: string | null;
  rows: { kind: string; found: number; oursP95: number; beforeP95?: number; ratio?: number }[];
};
/** The exact kinds (issue 74's goal: ≤ 0.7× the tree before); the forgiving and adversarial ones no slower. */
const EXACT_KINDS = ['e-mail', 'phone', 'last four', 'reference prefix', 'name tokens'];

const BUSY = ', request thread busy';

/** A row for the exact kinds and one for the others, idle and then busy (every p95 in results-search.md). */
function searchRows(f: SearchSideBySide): Row[] {
  const row = (exact: boolean, busy: boolean): Row => {
    const rows = f.rows.filter(
      (r) => r.kind.endsWith(BUSY) === busy && EXACT_KINDS.includes(r.kind.replace(BUSY, '')) === exact,
    );
    const figure = (r: SearchSideBySide['rows'][number]) =>
      `${r.kind.replace(BUSY, '')} ${f.before ? `${num(r.ratio!)}×` : `${num(r.oursP95)} ms`}`;
    return [
      `search p95 in process${busy ? BUSY : ', request thread idle'}, ${exact ? 'the exact kinds' : 'the forgiving and adversarial kinds'}${f.before ? `, ours / ${f.before}` : ''}`,
      rows.map(figure).join(', '),
      NONE,
      f.before ? (exact ? '≤ 0.7× each' : '≤ 1.0× each (beyond noise)') : '',
    ];
  };
  return [row(true, false), row(false, false), row(true, true), row(false, true)].filter((r) => r[1] !== '');
}

type OverviewSideBySide = {
  at: string;
  cores: number;
  indexed: number;
  before: string;
  rows: { page: string; ratio: number; oursHeightPx: number; beforeHeightPx: number }[];
};

/** One row: each page's render ratio to the tree before, and its height at 1280×800 (issue 75's goals). */
function overviewRows(f: OverviewSideBySide): Row[] {
  const figure = (r: OverviewSideBySide['rows'][number]) =>
    `${r.page.replace(/, vs today's page$/, '')} ${num(r.ratio)}×, ${num(r.oursHeightPx)} px (was ${num(r.beforeHeightPx)})`;
  return [
    [
      '`/overview` render median, ours / before; height at 1280×800',
      f.rows.map(figure).join('; '),
      NONE,
      '≤ 0.7×; ≤ 1,800 px',
    ],
  ];
}

const when = (iso: string) => iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
const machineNote = (m: Machine | undefined) => (m ? `${when(m.date)}, ${m.cpus} cores, Node ${m.node}` : 'no date');
const section = (title: string): Row => [`**${title}**`, '', '', ''];

/** scripts/bench-accounts.ts's figures: a small account alone against the same beside big ones syncing. */
type SeveralAccounts = {
  at: string;
  cores: number;
  accounts: number;
  rowsPerBigAccount: number;
  syncingDuringTen: number;
  rows: { what: string; oneMs: number; tenMs: number; ratio: number; goal: string; extraMs?: number }[];
};

/** Each row; an account's list, search and record pages on one row (one account vs ten, each ratio). */
function accountRows(f: SeveralAccounts): Row[] {
  const rows: Row[] = [];
  const pages = new Map<string, SeveralAccounts['rows']>();
  for (const r of f.rows) {
    const page = /^(.*): (list|search|record) page, median$/.exec(r.what);
    if (!page) {
      const extra = r.extraMs === undefined ? '' : `, +${r.extraMs} ms`;
      rows.push([r.what, `${r.oneMs} vs ${r.tenMs} ms (${r.ratio}×)${extra}`, '–', r.goal]);
      continue;
    }
    if (!pages.has(page[1]!)) {
      pages.set(page[1]!, []);
      rows.push([`${page[1]}: list / search / record pages, median`, '', '–', r.goal]);
    }
    const group = pages.get(page[1]!)!;
    group.push(r);
    const row = rows.find((x) => x[0].startsWith(`${page[1]}: list /`))!;
    row[1] = group.map((g) => `${g.oneMs} vs ${g.tenMs} ms (${g.ratio}×)`).join('; ');
  }
  return rows;
}

/** scripts/bench-annotations.ts's figures: notes and tags beside the same pages without, per store. */
type Annotations = {
  at: string;
  cores: number;
  scale: number;
  rounds: number;
  stores: {
    store: string;
    record: { withMs: number; withoutMs: number };
    tagList: { status: string; rows: number; page: [number, number]; api: [number, number] };
    whileTagging: {
      rows: number;
      requestMs: number;
      pages: { what: string; idleMs: number; busyMs: number }[];
      eventLoopMs: { p99: number; max: number };
    };
  }[];
};

function annotationRows(f: Annotations): Row[] {
  const vs = (a: number, b: number) => `${a} vs ${b} ms (${Math.round((a / b) * 100) / 100}×)`;
  const [sqlite, postgres] = [
    f.stores.find((s) => s.store === 'SQLite'),
    f.stores.find((s) => s.store === 'PostgreSQL'),
  ];
  const both = (what: string, figure: (s: Annotations['stores'][number]) => string, goal: string): Row => [
    what,
    sqlite ? figure(sqlite) : '–',
    postgres ? figure(postgres) : '–',
    goal,
  ];
  const any = (sqlite ?? postgres)!;
  return [
    both('record page p95, 20 notes and 5 tags vs none', (s) => vs(s.record.withMs, s.record.withoutMs), '≤ 1.1×'),
    both(
      `list page p95 by a tag vs by the status (${any.tagList.status}) whose ${num(any.tagList.rows)} rows it holds`,
      (s) => vs(...s.tagList.page),
      '≤ 1.2×',
    ),
    ...any.whileTagging.pages.map((p, i) =>
      both(
        `${p.what} page p95 while ${num(any.whileTagging.rows)} rows are tagged by a list state vs idle`,
        (s) => vs(s.whileTagging.pages[i]!.busyMs, s.whileTagging.pages[i]!.idleMs),
        '≤ 1.2×',
      ),
    ),
    both(
      'event-loop delay over the tagging, p99 / max; the request',
      (s) =>
        `${s.whileTagging.eventLoopMs.p99} / ${s.whileTagging.eventLoopMs.max} ms; ${num(s.whileTagging.requestMs)} ms`,
      'p99 ≤ 50 ms',
    ),
  ];
}

/** The table's rows for one file, by its shape; none for a shape this script does not know. */
function rowsOf(name: string, file: Record<string, unknown>): Row[] {
  if (Array.isArray(file.results)) {
    const phases = file.results as SoakPhase[];
    const first = phases[0];
    const title = `soak (\`npm run soak\`, ${name}), ${when(String(file.date))}${first ? `, ${first.users} people, ${first.minutes} min a phase` : ''}`;
    return [section(title), ...soakRows(phases)];
  }
  if (typeof file.historyShareOfAChangedWrite === 'number') {
    // bench-history.ts records no date: the file's commit says when it ran.
    return [
      section(`history (\`npm run bench:history\`, ${name}), SQLite; the file records no date`),
      ...historyRows(file as History),
    ];
  }
  if (typeof file.indexed === 'number' && Array.isArray(file.rows) && typeof file.before === 'string') {
    const f = file as unknown as OverviewSideBySide;
    const title = `overview side by side (\`npm run bench:overview\`, ${name}), ${when(f.at)}, ${f.cores} cores, ${num(f.indexed)} indexed`;
    return [section(title), ...overviewRows(f)];
  }
  if (typeof file.rowsPerBigAccount === 'number' && Array.isArray(file.rows)) {
    const f = file as unknown as SeveralAccounts;
    const title = `several accounts side by side (\`npm run bench:accounts\`, ${name}), ${when(f.at)}, ${f.cores} cores, ${f.accounts} accounts, ${f.syncingDuringTen} in their first sync of ${num(f.rowsPerBigAccount)}`;
    return [section(title), ...accountRows(f)];
  }
  if (Array.isArray(file.stores) && typeof file.scale === 'number') {
    const f = file as unknown as Annotations;
    const title = `notes and tags (\`npm run bench:annotations\`, ${name}), ${when(f.at)}, ${f.cores} cores, ${num(f.scale)} collections, ${f.rounds} rounds`;
    return [section(title), ...annotationRows(f)];
  }
  if (typeof file.records === 'number' && Array.isArray(file.rows)) {
    const f = file as unknown as SearchSideBySide;
    const title = `search side by side (\`npm run bench:search\`, ${name}), ${when(f.at)}, ${f.cores} cores, ${num(f.records)} records`;
    return [section(title), ...searchRows(f)];
  }
  const machine = file.machine as Machine | undefined;
  const out: Row[] = [];
  const pages = benchRows(PAGES, file);
  if (pages.length)
    out.push(
      section(`pages against the bare Next.js floor (\`npm run bench\`, ${name}), ${machineNote(machine)}`),
      ...pages,
    );
  const index = benchRows(INDEX, file);
  if (index.length)
    out.push(section(`search index (\`npm run bench:index\`, ${name}), ${machineNote(machine)}`), ...index);
  if (!out.length) console.error(`${name}: no figure this script knows; left out`);
  return out;
}

/** The full run's file first, then the benches in this order, then any other by name. */
const ORDER = [
  'results.json',
  'results-pages.json',
  'results-index.json',
  'results-search.json',
  'results-overview.json',
  'results-accounts.json',
  'results-annotations.json',
  'results-soak.json',
  'results-history.json',
];
function resultFiles(): string[] {
  const rank = (f: string) => (ORDER.includes(f) ? ORDER.indexOf(f) : ORDER.length);
  return readdirSync(`${ROOT}bench`)
    .filter((f) => /^results(-[\w-]+)?\.json$/.test(f))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The soak's figures (minutes of people, a sync and faults) stay in bench/README.md only. */
const FULL_TABLE_ONLY = new Set(['results-soak.json']);

/** Every row, or (for README.md) only the sections and the rows that have a goal, the soak's left out. */
function table(goalsOnly = false): string {
  const files = resultFiles().filter((name) => !goalsOnly || !FULL_TABLE_ONLY.has(name));
  const all = files.flatMap((name) =>
    rowsOf(name, JSON.parse(readFileSync(`${ROOT}bench/${name}`, 'utf8')) as Record<string, unknown>),
  );
  const rows = goalsOnly ? all.filter((r) => r[3] !== '' || r[0].startsWith('**')) : all;
  const escaped = (text: string) => text.replaceAll('|', '\\|');
  return [
    '| measure | SQLite, or the one figure | PostgreSQL | goal |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.map(escaped).join(' | ')} |`),
    '',
    `Generated from \`bench/results*.json\` by \`npm run bench:table\`${goalsOnly ? ' (the rows with a goal; the soak and every row in bench/README.md)' : ''}: rerun the bench, not this table.`,
  ].join('\n');
}

/** `text` with what lies between the markers replaced by `body`; null when it lacks them. */
function between(text: string, body: string): string | null {
  const from = text.indexOf(START);
  const to = text.indexOf(END, from);
  if (from < 0 || to < 0) return null;
  return `${text.slice(0, from + START.length)}\n${body}\n${text.slice(to)}`;
}

console.log(table());
if (process.argv.includes('--write')) {
  for (const [file, required] of [
    ['bench/README.md', true],
    ['README.md', false],
  ] as const) {
    const path = `${ROOT}${file}`;
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const next = between(text, table(!required));
    if (next === null) {
      if (required) throw new Error(`${file} has no ${START} … ${END} markers`);
      console.error(`${file}: no markers, left alone`);
    } else if (next !== text) {
      writeFileSync(path, next);
      console.error(`${file}: table replaced`);
    } else console.error(`${file}: already current`);
  }
}
