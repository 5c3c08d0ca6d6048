import 'server-only';
import type { ListState } from '@/lib/api/list-state';
import type { Collection } from '@/lib/api/schemas';
import { assertContext, type RequestContext } from '../context';
import { listCollections } from '../data';
import { getConfig } from '../env';
import { AppError } from '../errors';
import { logger } from '../logger';
import type { ExportRow } from '../search-index/queries';
import { guarded } from '../search-index/reads';
import { indexService } from '../search-index/service';
import { csvHeader, csvRows, exportFileName, type ExportRecord } from './csv';
import { abortableSleep, livePages, PAGE_SIZE } from './live-pages';

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
export type ExportInput = ListState & { contacts: boolean; live: boolean };

export const LIVE_MAX_ROWS = 10_000;
/**
 * Rows per chunk: one pull of the client's stream, and the longest the export holds the event loop
 * (about 5 ms at 250 rows) before other requests get a turn.
 */
const ROWS_PER_CHUNK = 250;
const encoder = new TextEncoder();
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function csvResponse(body: ReadableStream<Uint8Array>, count: number, source: 'index' | 'live', asOf: string) {
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName(new Date())}"`,
      'X-Total-Count': String(count),
      'X-Export-Source': source,
      'X-Export-As-Of': asOf,
      // no-transform: the server's gzip would hold rows back in its buffer, and the progress bar with them.
      'Cache-Control': 'private, no-store, no-transform',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

async function fromIndex(input: ExportInput, signal: AbortSignal): Promise<Response> {
  const { amountMinorUnits: minorUnits } = getConfig();
  const service = indexService();
  const [queries, status] = await Promise.all([service.queries(), service.status()]);
  const reader = await guarded(() => service.reader());
  let count: number;
  try {
    count = Number(reader.first<{ n: number }>(queries.exportCountQuery(input))?.n ?? 0);
  } catch (error) {
    reader.close();
    return guarded(() => Promise.reject(error));
  }
  const asOf = status.asOf ?? new Date().toISOString();
  const options = { contacts: input.contacts, minorUnits };

  let rows: IterableIterator<ExportRow> | null = null;
  let finished = false;
  let written = 0;
  const finish = () => {
    if (finished) return;
    finished = true;
    signal.removeEventListener('abort', finish);
    try {
      rows?.return?.();
    } finally {
      reader.close();
    }
  };
  signal.addEventListener('abort', finish, { once: true });

  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvHeader(options)));
      },
      async pull(controller) {
        if (finished) return;
        try {
          rows ??= reader.rows<ExportRow>(queries.exportQuery(input));
          const batch: ExportRecord[] = [];
          while (batch.length < ROWS_PER_CHUNK) {
            const next = rows.next();
            if (next.done) break;
            batch.push(queries.exportRecord(next.value, input.contacts));
          }
          written += batch.length;
          if (batch.length) controller.enqueue(encoder.encode(csvRows(batch, asOf, options)));
          if (batch.length < ROWS_PER_CHUNK) {
            finish();
            // The count and the rows are one snapshot: a difference is a fault, never a short file.
            if (written !== count) throw new Error(`export wrote ${written} of ${count} rows`);
            controller.close();
            return;
          }
        } catch (error) {
          finish();
          logger.error({ err: String(error) }, 'export from the index failed');
          controller.error(error);
          return;
        }
        // Other requests get their turn between chunks.
        await nextTurn();
      },
      cancel: finish,
    },
    { highWaterMark: 0 },
  );
  return csvResponse(body, count, 'index', asOf);
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
});

async function live(context: RequestContext, input: ExportInput, signal: AbortSignal): Promise<Response> {
  const { amountMinorUnits: minorUnits, index } = getConfig();
  const options = { contacts: input.contacts, minorUnits };
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const pages = livePages({
    read: (page, cancel) => listCollections(context, { page, limit: PAGE_SIZE }, cancel),
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
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvHeader(options)));
        if (!first.done && first.value.records.length)
          controller.enqueue(
            encoder.encode(csvRows(first.value.records.map(toRecord), first.value.fetchedAt, options)),
          );
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
          controller.enqueue(encoder.encode(csvRows(next.value.records.map(toRecord), next.value.fetchedAt, options)));
        } catch (error) {
          end();
          if (!stop.signal.aborted) logger.warn({ code: (error as AppError).code }, 'live export failed');
          controller.error(error);
        }
      },
      cancel: end,
    },
    { highWaterMark: 0 },
  );
  return csvResponse(body, count, 'live', asOf);
}

export async function exportCollections(context: RequestContext, input: ExportInput, signal: AbortSignal) {
  assertContext(context);
  return input.live ? live(context, input, signal) : fromIndex(input, signal);
}
