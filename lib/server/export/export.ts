import 'server-only';
import { LIVE_EXPORT_MAX_ROWS as LIVE_MAX_ROWS } from '@/lib/api/export';
import type { ListState } from '@/lib/api/list-state';
import type { ListColumnId } from '@/lib/api/columns';
import type { Collection } from '@/lib/api/schemas';
import { audited, searchTarget } from '../audit/audit';
import { assertContext, type RequestContext } from '../context';
import { seesContactDetails } from '../contact-details';
import { listCollections } from '../data';
import { getConfig } from '../env';
import { AppError } from '../errors';
import { logger } from '../logger';
import { MessageChannel, Worker } from 'node:worker_threads';
import { csvHeader, csvRows, exportFileName, type ExportRecord } from './csv';
import type { OpenerJob } from './index-export-opener';
import type { ExportJob, WorkerMessage } from './index-export-worker';
import { abortableSleep, livePages, PAGE_SIZE } from './live-pages';
import type { Runtime } from '../runtime';
import { sibling, startThread } from '../threads/start';

/**
 * `GET /api/export/collections.csv` (contract section 8): the view the user is
 * looking at, as a streamed CSV. From the index by default, any size, read on
 * a connection of its own and pulled only as fast as the client takes it, so
 * memory stays flat and a client that goes away stops the read at once. Live
 * (`live=1`) from the upstream's list, at the sync's pace, at most 10,000 rows.
 *
 * A failure after the first byte errors the stream, so the download fails in
 * the browser instead of ending as a short file that looks whole.
 */
export type ExportInput = ListState & { contacts: boolean; live: boolean; columns?: ListColumnId[]; plain?: boolean };

/**
 * Rows per chunk: one message between the threads and one pull of the client's stream (about 100 KB of
 * CSV, written by the opener's thread; this one only passes the bytes on).
 */
const ROWS_PER_CHUNK = 500;
const encoder = new TextEncoder();

/**
 * Ends a download that cannot finish with a reset of its connection, never a short file presented as whole.
 * The error is an `AbortError` so that Next destroys the connection without printing its own unstructured
 * "failed to pipe response" line: the reason is in our log already, as JSON.
 */
function cutShort(controller: ReadableStreamDefaultController<Uint8Array>, reason: string) {
  controller.error(new DOMException(reason, 'AbortError'));
}

function csvResponse(
  body: ReadableStream<Uint8Array>,
  count: number,
  source: 'index' | 'live',
  asOf: string,
  plain: boolean,
  /** From the index: how many collections it holds of how many (while it is built, the file holds fewer). */
  holds?: { indexed: number; upstreamCount: number | null; coverage: number },
) {
  return new Response(body, {
    headers: {
      ...(holds
        ? {
            'X-Index-Indexed': String(holds.indexed),
            'X-Index-Coverage': String(holds.coverage),
            ...(holds.upstreamCount !== null ? { 'X-Upstream-Count': String(holds.upstreamCount) } : {}),
          }
        : {}),
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName(new Date(), plain)}"`,
      'X-Total-Count': String(count),
      'X-Export-Source': source,
      'X-Export-As-Of': asOf,
      // no-transform: the server's gzip would hold rows back in its buffer, and the progress bar with them.
      'Cache-Control': 'private, no-store, no-transform',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** The workers' messages, one at a time, in the order they came. */
function inbox(workers: Worker[]) {
  const queue: WorkerMessage[] = [];
  let wake: (() => void) | null = null;
  const push = (message: WorkerMessage) => {
    queue.push(message);
    wake?.();
  };
  for (const worker of workers) {
    worker.on('message', push);
    worker.on('error', (error) => push({ type: 'error', message: String(error) }));
    worker.on('exit', (code) => push({ type: 'error', message: `the export's reader stopped (${code})` }));
  }
  return async (): Promise<WorkerMessage> => {
    while (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    return queue.shift()!;
  };
}

async function fromIndex(rt: Runtime, input: ExportInput, signal: AbortSignal): Promise<Response> {
  const { amountMinorUnits: minorUnits } = getConfig();
  const service = rt.index;
  const [queries, status, spec] = await Promise.all([service.queries(), service.status(), service.readerSpec()]);
  const plan = input.q ? await queries.plan(input.q) : null;
  const compiled = (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
    const { sql, parameters } = query.compile();
    return { sql, parameters: [...parameters] };
  };
  // A pipeline of three threads: the reader's worker reads rows (about 11 µs a row), the opener's opens
  // their contacts and writes the CSV (about 8 + 5 µs), this thread passes the bytes on (one chunk a turn).
  const { port1, port2 } = new MessageChannel();
  const job: ExportJob = {
    target: spec.target,
    count: compiled(queries.exportCountQuery(input, plan)),
    rows: compiled(queries.exportQuery(input, plan, Boolean(input.columns?.includes('tags')))),
    rowsPerChunk: ROWS_PER_CHUNK,
    port: port1,
  };
  const asOf = status.asOf ?? new Date().toISOString();
  const options = { contacts: input.contacts, minorUnits, columns: input.columns, plain: input.plain };
  const openerJob: OpenerJob = {
    secret: spec.secret,
    accountKey: spec.accountKey,
    contacts: input.contacts,
    asOf,
    csv: options,
    port: port2,
  };
  // Small heaps for the workers: each holds a few chunks of 500 rows (about 0.5 MB each) at a time, and
  // garbage collected early keeps RSS flat (a heap past its cap ends the worker: the export fails, never short).
  const readerLimits = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 16 };
  // The opener allocates about 10 KB a row (a decipher per contact, csv-stringify's cells). With 4 MB of
  // young generation it collected ~120 times a second and ran a full collection ~6 times a second, whose
  // optimised code went with them: V8's shared threads (at the process's priority, not the worker's nice
  // 10) spent two thirds of their time compiling csv-stringify and the decipher again. 16 MB, 1,000,000
  // rows with contacts: a larger young generation was faster for a little more memory (decision record 0020).
  const openerLimits = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 32 };
  // Background work (nice 10): the rows' CPU never slows the pages people wait on. Their messages are a
  // stream of chunks over a port of their own, paced by credits, not the threads' request and answer.
  const reader = startThread({
    name: "the export's reader",
    bundled: (options) => new Worker(new URL('./index-export-worker.ts', import.meta.url), { ...options }),
    source: sibling(import.meta.url, 'index-export-worker.ts'),
    workerData: job,
    transferList: [port1],
    resourceLimits: readerLimits,
    serverOnly: true,
    background: true,
  });
  const opener = startThread({
    name: "the export's opener",
    bundled: (options) => new Worker(new URL('./index-export-opener.ts', import.meta.url), { ...options }),
    source: sibling(import.meta.url, 'index-export-opener.ts'),
    workerData: openerJob,
    transferList: [port2],
    resourceLimits: openerLimits,
    serverOnly: true,
    background: true,
  });
  const next = inbox([reader, opener]);
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    signal.removeEventListener('abort', finish);
    void reader.terminate();
    void opener.terminate();
  };
  signal.addEventListener('abort', finish, { once: true });

  const first = await next();
  if (first.type !== 'count') {
    finish();
    logger.error({ err: first.type === 'error' ? first.message : first.type }, 'export from the index failed');
    throw new AppError('index_unavailable', 'The index could not be read for the export; try again in a moment');
  }
  const count = first.count;
  let written = 0;
  // Two chunks asked for ahead: the workers read and open the next while this thread writes the last.
  opener.postMessage('more');
  opener.postMessage('more');

  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvHeader(options)));
      },
      async pull(controller) {
        if (finished) return;
        const message = await next();
        if (message.type !== 'csv') {
          finish();
          logger.error(
            { err: message.type === 'error' ? message.message : message.type },
            'export from the index failed',
          );
          cutShort(controller, 'the export stopped part-way');
          return;
        }
        written += message.rows;
        if (message.rows) controller.enqueue(message.bytes);
        if (!message.done) {
          opener.postMessage('more');
          return;
        }
        finish();
        // The count and the rows are one snapshot: a difference is a fault, never a short file.
        if (written === count) return controller.close();
        logger.error({ written, count }, 'export from the index wrote another number of rows than it counted');
        cutShort(controller, `export wrote ${written} of ${count} rows`);
      },
      cancel: finish,
    },
    { highWaterMark: 0 },
  );
  return csvResponse(body, count, 'index', asOf, Boolean(input.plain), status);
}

const toRecord = (c: Collection): ExportRecord => ({
  id: c.id,
  reference: c.reference,
  status: c.status,
  type: c.type,
  amount: c.amount,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  completedAt: c.completedAt,
  contact: c.contact,
  lineItemCount: c.metadata.length,
  methods: c.payable.methods,
  followUp: { enabled: c.followUp.enabled, channels: c.followUp.channels },
});

async function live(rt: Runtime, context: RequestContext, input: ExportInput, signal: AbortSignal): Promise<Response> {
  const { amountMinorUnits: minorUnits, index } = getConfig();
  const options = { contacts: input.contacts, minorUnits, columns: input.columns, plain: input.plain };
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const pages = livePages({
    read: (page, cancel) => listCollections(rt, context, { page, limit: PAGE_SIZE }, cancel),
    rps: index.syncRps,
    max: LIVE_MAX_ROWS,
    signal: stop.signal,
    now: Date.now,
    sleep: abortableSleep,
  });
  const end = () => {
    signal.removeEventListener('abort', onAbort);
    stop.abort();
    void pages.return(undefined).catch(() => {});
  };
  let first;
  try {
    first = await pages.next();
  } catch (error) {
    end();
    throw error;
  }
  const count = first.done ? 0 : first.value.count;
  if (count > LIVE_MAX_ROWS) {
    end();
    throw new AppError(
      'bad_request',
      `Invalid live: a live export reads at most ${LIVE_MAX_ROWS.toLocaleString('en')} rows and this account has ${count.toLocaleString('en')}; export from the index instead (without live=1)`,
    );
  }
  const asOf = first.done ? new Date().toISOString() : first.value.fetchedAt;
  // Its tags (section 16) when the file shows them: one read of the tags' index a page.
  const withTags = input.columns?.includes('tags');
  const records = async (page: Collection[]): Promise<ExportRecord[]> => {
    if (!withTags) return page.map(toRecord);
    const tags = await rt.annotations.tagsOf(page.map((c) => c.id)).catch(() => new Map<string, { name: string }[]>());
    return page.map((c) => ({ ...toRecord(c), tags: (tags.get(c.id) ?? []).map((t) => t.name) }));
  };
  const firstRecords = first.done ? [] : await records(first.value.records);
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvHeader(options)));
        if (!first.done && firstRecords.length)
          controller.enqueue(encoder.encode(csvRows(firstRecords, first.value.fetchedAt, options)));
        if (first.done) {
          end();
          controller.close();
        }
      },
      async pull(controller) {
        try {
          const next = await pages.next();
          if (next.done) {
            end();
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(csvRows(await records(next.value.records), next.value.fetchedAt, options)));
        } catch (error) {
          end();
          // A person who cancelled (the request's signal) is no failure; `end` has aborted `stop` by now.
          if (!signal.aborted) logger.warn({ code: (error as AppError).code }, 'live export failed');
          cutShort(controller, 'the live export stopped part-way');
        }
      },
      cancel: end,
    },
    { highWaterMark: 0 },
  );
  return csvResponse(body, count, 'live', asOf, Boolean(input.plain));
}

export async function exportCollections(rt: Runtime, context: RequestContext, input: ExportInput, signal: AbortSignal) {
  assertContext(context);
  // One audit entry per export: its view (filters, sort, search as a keyed hash), contacts or not, rows.
  const { q, ...view } = input;
  return audited(
    rt.audit,
    context,
    'export',
    q ? searchTarget(q) : null,
    async () => {
      // Contact details leave in bulk only for those who see them on screen (contract sections 7a, 10).
      if (input.contacts && !seesContactDetails(context)) throw AppError.of('forbidden_role', 'collections');
      return input.live ? live(rt, context, input, signal) : fromIndex(rt, input, signal);
    },
    (response) => ({ ...view, rows: response ? Number(response.headers.get('X-Total-Count') ?? NaN) || null : null }),
  );
}
